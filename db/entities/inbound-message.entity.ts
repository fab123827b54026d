import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A message received by email (the SMTP listener or the mailbox poller), written with its raw bytes on disk before
 * the sender hears "accepted": nothing received is lost, whatever happens next. `dedupKey` (hash of the Message-ID,
 * or of the bytes without one) makes a second delivery the same row. `state`: received → posted | refused | ignored.
 */
export const InboundMessageSchema = defineEntity({
  name: 'InboundMessage',
  tableName: 'inbound_messages',
  properties: {
    id: p.integer().primary().autoincrement(),
    dedupKey: p.string().length(64).unique(),
    messageId: p.text().nullable(),
    receivedAt: p.datetime().onCreate(() => new Date()),
    source: p.string().length(8),
    /** MAIL FROM; '' for the null return path (bounces), null when unknown */
    envelopeFrom: p.text().nullable(),
    envelopeTo: p.text(),
    size: p.bigint('number'),
    /** the raw message under the data folder; null for a message refused for its size (never stored whole) */
    storedName: p.text().nullable(),
    state: p.string().length(16).default('received'),
    outcome: p.text().nullable(),
    requestId: p.integer().nullable(),
    discussionId: p.integer().nullable(),
    answerSentAt: p.datetime().nullable(),
    /** where the answer to a refused sender went */
    answerTo: p.text().nullable(),
    processedAt: p.datetime().nullable(),
  },
});
export type InboundMessage = InferEntity<typeof InboundMessageSchema>;
