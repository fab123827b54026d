/**
 * One attempt of one webhook delivery: read what the event owes, check the owner may still read the request, sign
 * the payload by the Standard Webhooks scheme with every secret in force, POST it to the endpoint's checked address
 * (no redirect followed: a 3xx is a failure), and record the attempt. The caller (the delivery workflow's activity)
 * retries a failed attempt with Temporal's backoff; an endpoint failing too long is disabled here, and the attempt
 * then fails for good.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  addressAllowed, checkWebhookUrl, secretsInForce, verificationUrl, WEBHOOK_ATTEMPT_TIMEOUT_MS, WEBHOOK_DELIVERY_STATUS, WEBHOOK_EVENT,
  WEBHOOK_URL_MESSAGES, type WebhookTargetPolicy,
} from '../../domain';
import { kysely } from '../../db/kysely';
import { guardedLookup } from './webhook-targets';

export interface WebhookDeliverySettings extends WebhookTargetPolicy {
  publicUrl: string;
  disableAfterMs: number;
}

/** An attempt that did not deliver: `final` when retrying cannot help (the endpoint is disabled or gone). */
export class WebhookAttemptFailed extends Error {
  override readonly name = 'WebhookAttemptFailed';
  constructor(message: string, readonly final: boolean) {
    super(message);
  }
}

type Em = Pick<EntityManager, 'getKysely'>;

/** What the receiver gets: ids, number, kinds, status and links, of a request its owner may read; no form data. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/** A timestamp as the driver gives it (a string through the ORM's Kysely), as a Date. */
export const asDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

async function loadDelivery(em: Em, deliveryId: number) {
  return kysely(em).selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('requests as r', 'r.id', 'd.request_id')
    .innerJoin('users as u', 'u.id', 'e.owner_id')
    .select([
      'd.id', 'd.event_type', 'd.data', 'd.status', 'd.resend_of', 'd.created_at', 'd.endpoint_id',
      'e.url', 'e.secret', 'e.previous_secret', 'e.previous_secret_until', 'e.disabled_at',
      'r.id as request_id', 'r.request_number', 'r.request_type', 'r.certificate_type', 'r.status as request_status',
      'r.requester_id', 'r.email as request_email', 'u.id as owner_id', 'u.email as owner_email', 'u.email_confirmed_at',
    ])
    .where('d.id', '=', String(deliveryId))
    .executeTakeFirst();
}
type DeliveryRow = NonNullable<Awaited<ReturnType<typeof loadDelivery>>>;

/** The rule of services/requests/request-access.ts `canSee`, for an owner who is no administrator. */
const ownerMaySee = (row: DeliveryRow) => row.requester_id === row.owner_id
  || (!!row.email_confirmed_at && !!row.request_email && row.request_email.toLowerCase() === row.owner_email.toLowerCase());

async function payloadOf(em: Em, row: DeliveryRow, publicUrl: string): Promise<WebhookPayload> {
  const base = publicUrl.replace(/\/+$/, '');
  const event = row.data as Record<string, unknown>;
  const data: Record<string, unknown> = {
    requestId: row.request_id, requestNumber: row.request_number, requestType: row.request_type, certificateType: row.certificate_type ?? null,
    status: row.request_status, requestUrl: `${base}/api/v1/requests/${row.request_id}`,
  };
  if (row.event_type === WEBHOOK_EVENT.statusChanged) Object.assign(data, { statusFrom: event.statusFrom ?? null, statusTo: event.statusTo });
  if (row.event_type === WEBHOOK_EVENT.letterIssued) {
    const documentId = event.documentId as number | null;
    const document = documentId
      ? await kysely(em).selectFrom('documents').select(['name']).where('id', '=', documentId).where('request_id', '=', row.request_id).executeTakeFirst()
      : undefined;
    data.letter = {
      kind: event.letterKind,
      verificationUrl: verificationUrl(base, String(event.verificationCode)),
      // the download route names a document by its name on the request (GET /documents/:requestId/:name)
      downloadUrl: document ? `${base}/api/v1/documents/${row.request_id}/${encodeURIComponent(document.name)}` : null,
    };
  }
  if (row.event_type === WEBHOOK_EVENT.discussionMessage) {
    data.message = { id: event.messageId, discussionId: event.discussionId, fromOffice: event.fromOffice, url: `${base}/api/v1/discussions/${event.messageId}` };
  }
  return { type: row.event_type, timestamp: new Date(String(event.at ?? row.created_at)).toISOString(), data };
}

/** The Standard Webhooks headers: one `v1,` signature per secret in force, space-separated. */
export function signWebhook(secrets: string[], messageId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}

interface PostResult { statusCode: number | null; error: string | null }

/** POSTs `body`; never follows a redirect; the connection goes only to an address the rules allow. */
function post(url: string, headers: Record<string, string>, body: string, policy: WebhookTargetPolicy): Promise<PostResult> {
  const checked = checkWebhookUrl(url, policy);
  if ('refused' in checked) return Promise.resolve({ statusCode: null, error: checked.refused });
  // An IP literal is connected to without a lookup: checked here instead.
  if (isIP(checked.host) && !addressAllowed(checked.host, policy)) return Promise.resolve({ statusCode: null, error: WEBHOOK_URL_MESSAGES.forbiddenAddress });
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve) => {
    const request = client.request(url, {
      method: 'POST', lookup: guardedLookup(policy), timeout: WEBHOOK_ATTEMPT_TIMEOUT_MS, agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'coi-portal-webhooks/1', ...headers },
    }, (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => { read += chunk.length; if (read > MAX_RESPONSE_BYTES) response.destroy(); });
      const done = () => resolve({ statusCode: response.statusCode ?? null, error: null });
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${WEBHOOK_ATTEMPT_TIMEOUT_MS / 1000} s`)));
    request.on('error', (error) => resolve({ statusCode: null, error: error.message }));
    request.end(body);
  });
}

async function recordAttempt(em: Em, row: DeliveryRow, at: Date, durationMs: number, result: PostResult, delivered: boolean): Promise<void> {
  const db = kysely(em);
  const error = delivered ? null : result.error ?? `HTTP ${result.statusCode}${result.statusCode && result.statusCode >= 300 && result.statusCode < 400 ? ' (redirects are not followed)' : ''}`;
  await sql`with d as (
      update webhook_deliveries set attempts = attempts + 1, last_status_code = ${result.statusCode}, last_error = ${error},
        last_attempt_at = ${at}, status = case when ${delivered}::boolean then ${WEBHOOK_DELIVERY_STATUS.delivered} else status end,
        delivered_at = case when ${delivered}::boolean then ${at}::timestamptz else delivered_at end
      where id = ${row.id} returning attempts),
    -- A success clears the endpoint's failing mark in the same statement, so no reader sees the delivery delivered
    -- while its endpoint still counts as failing.
    e as (update webhook_endpoints set failing_since = null
      where ${delivered}::boolean and id = ${row.endpoint_id} and failing_since is not null)
    insert into webhook_attempts (delivery_id, attempt, at, duration_ms, status_code, error)
    select ${row.id}, attempts, ${at}, ${Math.round(durationMs)}, ${result.statusCode}, ${error} from d`.execute(db);
}

/**
 * Marks the endpoint failing since its first failure without a success after it, and disables it once that is older
 * than `disableAfterMs`. Answers whether it is disabled now.
 */
async function noteEndpointFailure(em: Em, endpointId: number, at: Date, disableAfterMs: number, reason: string): Promise<boolean> {
  const row = await sql<{ disabled: boolean }>`update webhook_endpoints set
      failing_since = coalesce(failing_since, ${at}::timestamptz),
      disabled_at = case when disabled_at is null and coalesce(failing_since, ${at}::timestamptz) <= ${at}::timestamptz - make_interval(secs => ${disableAfterMs / 1000})
        then ${at}::timestamptz else disabled_at end,
      disabled_reason = case when disabled_at is null and coalesce(failing_since, ${at}::timestamptz) <= ${at}::timestamptz - make_interval(secs => ${disableAfterMs / 1000})
        then ${reason} else disabled_reason end,
      updated_at = now()
    where id = ${endpointId} returning disabled_at is not null as disabled`.execute(kysely(em));
  return row.rows[0]?.disabled ?? true;
}

/**
 * One attempt. Answers what happened when there is nothing more to do (delivered, already delivered, withheld, gone);
 * throws WebhookAttemptFailed when it did not deliver.
 */
export async function attemptWebhookDelivery(em: Em, deliveryId: number, settings: WebhookDeliverySettings): Promise<{ outcome: 'delivered' | 'already' | 'withheld' | 'gone' }> {
  const row = await loadDelivery(em, deliveryId);
  if (!row) return { outcome: 'gone' };
  if (row.status !== WEBHOOK_DELIVERY_STATUS.pending) return { outcome: 'already' };
  if (row.disabled_at) throw new WebhookAttemptFailed('The endpoint is disabled', true);
  if (!ownerMaySee(row)) {
    // The owner lost sight of the request after the event (an address changed): nothing of it is sent.
    await kysely(em).updateTable('webhook_deliveries').set({ status: WEBHOOK_DELIVERY_STATUS.failed, last_error: 'withheld: the account no longer has access to this request' })
      .where('id', '=', row.id).execute();
    return { outcome: 'withheld' };
  }
  const body = JSON.stringify(await payloadOf(em, row, settings.publicUrl));
  const at = new Date();
  const headers = signWebhook(secretsInForce({ secret: row.secret, previousSecret: row.previous_secret, previousSecretUntil: asDate(row.previous_secret_until) }, at),
    `msg_${row.resend_of ?? row.id}`, at, body);
  const started = performance.now();
  const result = await post(row.url, headers, body, settings);
  const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  await recordAttempt(em, row, at, performance.now() - started, result, delivered);
  if (delivered) return { outcome: 'delivered' };
  const reason = result.error ?? `HTTP ${result.statusCode}`;
  const disabled = await noteEndpointFailure(em, row.endpoint_id, at, settings.disableAfterMs, reason);
  throw new WebhookAttemptFailed(disabled ? `${reason}; the endpoint failed too long and is disabled` : reason, disabled);
}

/**
 * After the last attempt: the delivery is failed (unless an attempt delivered it meanwhile). Answers whether its
 * endpoint is disabled with its owner not yet told.
 */
export async function closeFailedDelivery(em: Em, deliveryId: number): Promise<{ endpointId: number | null; tellOwner: boolean }> {
  const db = kysely(em);
  const row = await db.updateTable('webhook_deliveries').set({ status: WEBHOOK_DELIVERY_STATUS.failed })
    .where('id', '=', String(deliveryId)).where('status', '=', WEBHOOK_DELIVERY_STATUS.pending).returning(['endpoint_id']).executeTakeFirst()
    ?? await db.selectFrom('webhook_deliveries').select(['endpoint_id']).where('id', '=', String(deliveryId)).executeTakeFirst();
  if (!row) return { endpointId: null, tellOwner: false };
  const endpoint = await db.selectFrom('webhook_endpoints').select(['disabled_at', 'disabled_emailed_at']).where('id', '=', row.endpoint_id).executeTakeFirst();
  return { endpointId: row.endpoint_id, tellOwner: !!endpoint?.disabled_at && !endpoint.disabled_emailed_at };
}
