/**
 * `api/v1/webhook-endpoints` and `api/v1/webhook-deliveries`: an external account's webhooks (domain/webhooks.ts).
 * The owner manages their endpoints; administrators may list every endpoint and its deliveries.
 */
import { Type, type Static } from 'typebox';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX_LENGTH } from '../domain';
import { Id, Nullable, NullableTimestamp, StringEnum, Timestamp } from './primitives';

const EventType = StringEnum(WEBHOOK_EVENT_TYPES, {
  description: 'request.status_changed: a submission or change of status; letter.issued: a certificate or letter issued (with its verification and download links); discussion.message: a new message',
});

export const WebhookEndpointInput = Type.Object({
  url: Type.String({ minLength: 1, maxLength: WEBHOOK_URL_MAX_LENGTH, description: 'https:// only; never a private, loopback or link-local address' }),
  events: Type.Array(EventType, { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true }),
  description: Type.Optional(Type.String({ maxLength: 200 })),
}, { additionalProperties: false });
export type WebhookEndpointInput = Static<typeof WebhookEndpointInput>;

export const WebhookEndpoint = Type.Object({
  id: Id,
  ownerId: Id,
  ownerEmail: Type.String(),
  url: Type.String(),
  events: Type.Array(EventType),
  description: Nullable(Type.String()),
  createdAt: Timestamp,
  previousSecretValidUntil: NullableTimestamp,
  failingSince: NullableTimestamp,
  disabledAt: NullableTimestamp,
  disabledReason: Nullable(Type.String()),
  deliveries: Type.Integer({ minimum: 0 }),
  failedDeliveries: Type.Integer({ minimum: 0 }),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookEndpointList = Type.Object({ data: Type.Array(WebhookEndpoint) });
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

/** The endpoint and its signing secret: the only time the secret is shown. */
export const WebhookEndpointCreated = Type.Object({
  endpoint: WebhookEndpoint,
  secret: Type.String({ description: 'whsec_…: verify each delivery with it (Standard Webhooks); shown once' }),
});
export type WebhookEndpointCreated = Static<typeof WebhookEndpointCreated>;

export const WebhookSecretRotated = Type.Object({
  secret: Type.String({ description: 'the new secret, shown once' }),
  previousSecretValidUntil: Timestamp,
});
export type WebhookSecretRotated = Static<typeof WebhookSecretRotated>;

export const WebhookAttempt = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  at: Timestamp,
  durationMs: Type.Integer({ minimum: 0 }),
  statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
});

export const WebhookDelivery = Type.Object({
  id: Id,
  endpointId: Id,
  eventType: EventType,
  requestId: Id,
  requestNumber: Nullable(Type.Integer()),
  status: StringEnum(WEBHOOK_DELIVERY_STATUSES, { description: 'pending: not answered 2xx yet (retried with backoff); delivered; failed: given up' }),
  attempts: Type.Integer({ minimum: 0 }),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  lastAttemptAt: NullableTimestamp,
  deliveredAt: NullableTimestamp,
  createdAt: Timestamp,
  resendOf: Nullable(Type.Integer()),
  attemptLog: Type.Array(WebhookAttempt),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveriesQuery = Type.Object({
  $limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
  $skip: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
}, { additionalProperties: false });
export type WebhookDeliveriesQuery = Static<typeof WebhookDeliveriesQuery>;

export const WebhookDeliveryPage = Type.Object({
  total: Type.Integer({ minimum: 0 }), limit: Type.Integer({ minimum: 0 }), skip: Type.Integer({ minimum: 0 }), data: Type.Array(WebhookDelivery),
});
export type WebhookDeliveryPage = Static<typeof WebhookDeliveryPage>;
