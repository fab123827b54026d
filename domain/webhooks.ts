/**
 * Webhooks an account registers for its own requests: the events, what a delivery's states mean, how long an old
 * secret stays valid after a rotation, and how long an endpoint may fail before it is disabled. The address rules
 * are in domain/webhook-targets.ts.
 */

/** The events an endpoint may ask for, as the payload's `type` names them. */
export const WEBHOOK_EVENT = {
  statusChanged: 'request.status_changed',
  letterIssued: 'letter.issued',
  discussionMessage: 'discussion.message',
} as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT)[keyof typeof WEBHOOK_EVENT];
export const WEBHOOK_EVENT_TYPES = Object.values(WEBHOOK_EVENT) as WebhookEventType[];

export const WEBHOOK_EVENT_LABEL: Readonly<Record<WebhookEventType, string>> = {
  'request.status_changed': 'Status changed',
  'letter.issued': 'Certificate or letter issued',
  'discussion.message': 'New discussion message',
};

/** A delivery: waiting for its first answer or retrying, answered 2xx, given up (or its endpoint disabled). */
export const WEBHOOK_DELIVERY_STATUS = { pending: 'pending', delivered: 'delivered', failed: 'failed' } as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUS)[keyof typeof WEBHOOK_DELIVERY_STATUS];
export const WEBHOOK_DELIVERY_STATUSES = Object.values(WEBHOOK_DELIVERY_STATUS) as WebhookDeliveryStatus[];

/** After a rotation the previous secret still signs every delivery this long, so a receiver can switch without a gap. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;
/** An endpoint whose deliveries have failed without a success in between for this long is disabled, its owner told. */
export const WEBHOOK_DISABLE_AFTER_MS = 72 * 3_600_000;
/** One attempt waits this long for an answer. */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 10_000;
/** Endpoints one account may keep. */
export const WEBHOOK_ENDPOINTS_PER_ACCOUNT = 10;

/** The Standard Webhooks secret prefix; the rest is base64 of the key's bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export const WEBHOOK_MESSAGES = {
  externalOnly: 'Webhooks are for external accounts: sign in with the account whose requests they report',
  tooMany: `An account may have at most ${WEBHOOK_ENDPOINTS_PER_ACCOUNT} webhook endpoints`,
  noEvents: 'Choose at least one event',
  endpointNotFound: 'No such webhook endpoint',
  deliveryNotFound: 'No such webhook delivery',
  disabledSubject: 'Your webhook endpoint was disabled',
} as const;

/**
 * The signatures a delivery carries: one per secret in force, space-separated as Standard Webhooks allows (the
 * receiver accepts the delivery if any verifies). The previous secret signs until its overlap ends.
 */
export function secretsInForce(endpoint: { secret: string; previousSecret: string | null; previousSecretUntil: Date | null }, now: Date): string[] {
  const previous = endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil.getTime() > now.getTime()
    ? [endpoint.previousSecret] : [];
  return [endpoint.secret, ...previous];
}
