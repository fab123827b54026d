/**
 * An account's webhook endpoints and their deliveries: register (the address checked after resolution), list,
 * remove, rotate the secret (the previous one signs too for a day), list deliveries with their attempts, send one
 * again. Owners manage their own; administrators read every one.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  WEBHOOK_DELIVERY_STATUS, WEBHOOK_ENDPOINTS_PER_ACCOUNT, WEBHOOK_MESSAGES, WEBHOOK_SECRET_OVERLAP_MS, WEBHOOK_SECRET_PREFIX,
  type WebhookEventType, type WebhookTargetPolicy,
} from '../../domain';
import { kysely } from '../../db/kysely';
import type { SessionUser } from '../../contract/session-user.schema';
import type {
  WebhookDeliveriesQuery, WebhookDelivery, WebhookDeliveryPage, WebhookEndpoint, WebhookEndpointCreated, WebhookEndpointInput, WebhookSecretRotated,
} from '../../contract/webhook.schema';
import { conflict, forbidden, invalid, notFound } from '../refusals';
import { webhookUrlRefusal } from './webhook-targets';

type Em = Pick<EntityManager, 'getKysely'>;

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

function endpointsQuery(em: Em) {
  return kysely(em).selectFrom('webhook_endpoints as e').innerJoin('users as u', 'u.id', 'e.owner_id')
    .select([
      'e.id', 'e.owner_id', 'u.email as owner_email', 'e.url', 'e.events', 'e.description', 'e.created_at', 'e.previous_secret_until',
      'e.failing_since', 'e.disabled_at', 'e.disabled_reason',
      sql<number>`(select count(*)::int from webhook_deliveries d where d.endpoint_id = e.id)`.as('deliveries'),
      sql<number>`(select count(*)::int from webhook_deliveries d where d.endpoint_id = e.id and d.status = ${WEBHOOK_DELIVERY_STATUS.failed})`.as('failed_deliveries'),
    ]);
}
type EndpointRow = Awaited<ReturnType<ReturnType<typeof endpointsQuery>['executeTakeFirstOrThrow']>>;

const endpointOf = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id, ownerId: row.owner_id, ownerEmail: row.owner_email, url: row.url, events: row.events as WebhookEventType[],
  description: row.description, createdAt: row.created_at,
  previousSecretValidUntil: row.previous_secret_until && new Date(row.previous_secret_until).getTime() > Date.now() ? row.previous_secret_until : null,
  failingSince: row.failing_since, disabledAt: row.disabled_at, disabledReason: row.disabled_reason,
  deliveries: row.deliveries, failedDeliveries: row.failed_deliveries,
});

/** The caller's endpoint `id` (an administrator reads any with `read`): 404 for none, 403 for another's. */
async function endpointFor(em: Em, user: SessionUser, id: number, mode: 'read' | 'manage'): Promise<EndpointRow> {
  const row = await endpointsQuery(em).where('e.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(WEBHOOK_MESSAGES.endpointNotFound);
  if (row.owner_id !== user.id && !(mode === 'read' && user.isAdmin)) throw forbidden('You do not have access to this webhook endpoint');
  return row;
}

function assertExternal(user: SessionUser): void {
  if (!user.isExternal || user.isAdmin) throw forbidden(WEBHOOK_MESSAGES.externalOnly);
}

export async function listWebhookEndpoints(em: Em, user: SessionUser): Promise<{ data: WebhookEndpoint[] }> {
  if (!user.isAdmin) assertExternal(user);
  let query = endpointsQuery(em).orderBy('e.id');
  if (!user.isAdmin) query = query.where('e.owner_id', '=', user.id);
  return { data: (await query.execute()).map(endpointOf) };
}

export async function createWebhookEndpoint(em: Em, user: SessionUser, input: WebhookEndpointInput, policy: WebhookTargetPolicy): Promise<WebhookEndpointCreated> {
  assertExternal(user);
  const url = input.url.trim();
  const refusal = await webhookUrlRefusal(url, policy);
  if (refusal) throw invalid(refusal, { url: refusal });
  if (!input.events.length) throw invalid(WEBHOOK_MESSAGES.noEvents, { events: WEBHOOK_MESSAGES.noEvents });
  const secret = newWebhookSecret();
  // The count and the insert in one statement: two tabs registering at once never pass the limit together.
  const inserted = await sql<{ id: number }>`insert into webhook_endpoints (owner_id, url, events, description, secret)
    select ${user.id}, ${url}, ${[...new Set(input.events)]}::text[], ${input.description?.trim() || null}, ${secret}
    where (select count(*) from webhook_endpoints where owner_id = ${user.id}) < ${WEBHOOK_ENDPOINTS_PER_ACCOUNT}
    returning id`.execute(kysely(em));
  const id = inserted.rows[0]?.id;
  if (!id) throw conflict(WEBHOOK_MESSAGES.tooMany);
  return { endpoint: endpointOf(await endpointsQuery(em).where('e.id', '=', id).executeTakeFirstOrThrow()), secret };
}

export async function deleteWebhookEndpoint(em: Em, user: SessionUser, id: number): Promise<void> {
  await endpointFor(em, user, id, 'manage');
  await kysely(em).deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** A new secret; the one it replaces keeps signing deliveries (beside the new) for WEBHOOK_SECRET_OVERLAP_MS. */
export async function rotateWebhookSecret(em: Em, user: SessionUser, id: number): Promise<WebhookSecretRotated> {
  await endpointFor(em, user, id, 'manage');
  const secret = newWebhookSecret();
  const until = new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_MS);
  await sql`update webhook_endpoints set previous_secret = secret, previous_secret_until = ${until}, secret = ${secret}, updated_at = now()
    where id = ${id}`.execute(kysely(em));
  return { secret, previousSecretValidUntil: until };
}

export async function listWebhookDeliveries(em: Em, user: SessionUser, endpointId: number, query: WebhookDeliveriesQuery): Promise<WebhookDeliveryPage> {
  await endpointFor(em, user, endpointId, 'read');
  const limit = query.$limit ?? 25;
  const skip = query.$skip ?? 0;
  const db = kysely(em);
  const total = await db.selectFrom('webhook_deliveries').select(sql<number>`count(*)::int`.as('n')).where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
  const rows = await db.selectFrom('webhook_deliveries as d').innerJoin('requests as r', 'r.id', 'd.request_id')
    .select([
      'd.id', 'd.endpoint_id', 'd.event_type', 'd.request_id', 'r.request_number', 'd.status', 'd.attempts', 'd.last_status_code', 'd.last_error',
      'd.last_attempt_at', 'd.delivered_at', 'd.created_at', 'd.resend_of',
      sql<Array<{ attempt: number; at: string; durationMs: number; statusCode: number | null; error: string | null }>>`coalesce((
        select json_agg(json_build_object('attempt', a.attempt, 'at', a.at, 'durationMs', a.duration_ms, 'statusCode', a.status_code, 'error', a.error) order by a.attempt)
        from webhook_attempts a where a.delivery_id = d.id), '[]'::json)`.as('attempt_log'),
    ])
    .where('d.endpoint_id', '=', endpointId).orderBy('d.id', 'desc').limit(limit).offset(skip).execute();
  const data: WebhookDelivery[] = rows.map((r) => ({
    id: Number(r.id), endpointId: r.endpoint_id, eventType: r.event_type as WebhookEventType, requestId: r.request_id, requestNumber: r.request_number,
    status: r.status, attempts: r.attempts, lastStatusCode: r.last_status_code, lastError: r.last_error, lastAttemptAt: r.last_attempt_at,
    deliveredAt: r.delivered_at, createdAt: r.created_at, resendOf: r.resend_of === null ? null : Number(r.resend_of), attemptLog: r.attempt_log,
  }));
  return { total: total.n, limit, skip, data };
}

/**
 * Sends a delivery again: a new delivery of the same event (the receiver sees the same `webhook-id`, so it can tell
 * a copy), started by the worker like any other. Sending again is the owner saying the endpoint works: a disabled
 * endpoint is enabled again.
 */
export async function resendWebhookDelivery(em: Em, user: SessionUser, deliveryId: number): Promise<{ id: number }> {
  const db = kysely(em);
  const original = await db.selectFrom('webhook_deliveries').select(['id', 'endpoint_id', 'resend_of']).where('id', '=', String(deliveryId)).executeTakeFirst();
  if (!original) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
  await endpointFor(em, user, original.endpoint_id, 'manage');
  await db.updateTable('webhook_endpoints').set({ disabled_at: null, disabled_reason: null, disabled_emailed_at: null, failing_since: null, updated_at: new Date() })
    .where('id', '=', original.endpoint_id).where('disabled_at', 'is not', null).execute();
  const copy = await sql<{ id: string }>`insert into webhook_deliveries (endpoint_id, event_type, request_id, data, resend_of)
    select endpoint_id, event_type, request_id, data, coalesce(resend_of, id) from webhook_deliveries where id = ${original.id}
    returning id`.execute(db);
  await sql`select pg_notify('webhook_deliveries', '')`.execute(db);
  return { id: Number(copy.rows[0]!.id) };
}
