import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/**
 * One message of a request's discussions (spec 1 §3): `discussionId` is the thread id. Deleting (admin only) sets
 * `deletedAt` and keeps the row.
 */
export const DiscussionSchema = defineEntity({
  name: 'Discussion',
  tableName: 'discussions',
  properties: {
    ...baseProperties,
    requestId: p.integer().index(),
    discussionId: p.string().length(32).index(),
    sender: p.string(),
    senderEmail: p.string(),
    /** the user who wrote it, when known (the name stays: history shows users who are gone) */
    senderUserId: p.integer().nullable(),
    fromAdmin: p.boolean().default(false),
    topic: p.string(),
    message: p.text(),
    deletedAt: p.datetime().nullable(),
    /** arrived as an email reply (shown with a "by email" mark) */
    byEmail: p.boolean().default(false),
    /** the received message it came from: one message makes at most one row */
    inboundMessageId: p.integer().nullable(),
  },
});
export type Discussion = InferEntity<typeof DiscussionSchema>;
