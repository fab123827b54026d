import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/** `letter`: a letter regenerated on demand without an email (generate-pdfs). */
type EffectKind = 'email' | 'letter-and-email' | 'letter';
type EffectState = 'pending' | 'sent' | 'failed';

/**
 * One email (with its letter, for approvals) that a request's workflow owes. Written in the same transaction as
 * the status change that causes it, with the `snapshot` it is rendered from, so a later edit of the request never
 * changes what that change sent. Keyed by `<workflowId>:<runId>:<seq>`: a retried activity finds its row.
 *
 * Delivery: `claimedAt` before the SMTP call, `sentAt` after it. A retry that finds a claim without a mark cannot
 * know whether the server got the first attempt: it sends again with the same Message-ID and says so in the audit.
 */
export const RequestEffectSchema = defineEntity({
  name: 'RequestEffect',
  tableName: 'request_effects',
  properties: {
    ...baseProperties,
    idempotencyKey: p.string().unique(),
    requestId: p.integer(),
    kind: p.string().length(32).$type<EffectKind>(),
    templateTitle: p.string(),
    snapshot: p.json<Record<string, unknown>>(),
    state: p.string().length(16).$type<EffectState>().default('pending'),
    recipients: p.text().nullable(),
    messageId: p.string().nullable(),
    letterDocumentId: p.integer().nullable(),
    claimedAt: p.datetime().nullable(),
    /** attempts that claimed it for the mail server (each before its SMTP call): how often it may have gone out */
    claims: p.integer().default(0),
    sentAt: p.datetime().nullable(),
    failedAt: p.datetime().nullable(),
    failure: p.text().nullable(),
    /** the audit row of the failed email this one sends again */
    retryOf: p.integer().nullable(),
  },
  indexes: [{ properties: ['requestId', 'state'] }],
});
export type RequestEffect = InferEntity<typeof RequestEffectSchema>;
