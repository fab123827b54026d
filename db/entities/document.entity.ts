import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/** A file of a request. The bytes live on disk under the data folder as `storedName` (never the client's name). */
export const DocumentSchema = defineEntity({
  name: 'Document',
  tableName: 'documents',
  uniques: [{ properties: ['requestId', 'name'] }],
  properties: {
    ...baseProperties,
    requestId: p.integer().index(),
    name: p.string(),
    description: p.string().nullable(),
    storedName: p.string().unique(),
    mimeType: p.string(),
    size: p.integer(),
    isAttachment: p.boolean().default(false),
    uploadedBy: p.string().nullable(),
    /** the user named by `uploadedBy`, when known (the name stays: history shows users who are gone) */
    uploadedByUserId: p.integer().nullable(),
    /** added by an administrator: a requester may not remove it */
    addedByAdmin: p.boolean().default(false),
    legacyId: p.string().nullable(),
    /** Set on generated letters (and only on them) so a retried activity finds the letter it already made. */
    idempotencyKey: p.string().nullable().unique(),
    /** Set on an attachment of a reply by email (`inbound:<message>:<attachment>`): a retried processing finds it. */
    inboundKey: p.string().nullable().unique(),
  },
});
export type Document = InferEntity<typeof DocumentSchema>;
