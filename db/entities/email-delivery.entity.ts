import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/**
 * One row per email the workflow asked for, keyed by `<workflowId>:<effect>`: a retried activity finds the row
 * marked sent and does not send again.
 */
export const EmailDeliverySchema = defineEntity({
  name: 'EmailDelivery',
  tableName: 'email_deliveries',
  properties: {
    ...baseProperties,
    idempotencyKey: p.string().unique(),
    requestId: p.integer().index(),
    templateTitle: p.string(),
    recipients: p.text(),
    messageId: p.string(),
    sentAt: p.datetime().nullable(),
  },
});
export type EmailDelivery = InferEntity<typeof EmailDeliverySchema>;
