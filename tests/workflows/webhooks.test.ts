/**
 * Signed webhooks on real parts, against a real local receiver: an event (a submission, an administrator's
 * approval, the letter issued, a message) reaches the account's endpoint signed by the Standard Webhooks scheme
 * (verified with the package's own Webhook class), a receiver that fails is retried until it answers 2xx, a redirect
 * is a failure, a secret rotation signs with both secrets for the overlap, another account's requests never reach
 * this account's endpoint, and an endpoint failing for three days is disabled and its owner emailed once. The
 * address rules are held on registration with the private-target setting off (a second API on the same database).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS, WEBHOOK_EVENT, WEBHOOK_MESSAGES, WEBHOOK_URL_MESSAGES } from '../../domain';
import { kysely } from '../../db/kysely';
import { call, createExternalUser, credentialingDraft, loginAdmin, loginRequester, sessionFor, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

interface Received { path: string; headers: Record<string, string>; body: string; at: number }

/** A receiver on 127.0.0.1: each path answers its queue of statuses (then 200), and every request is kept. */
class Receiver {
  readonly received: Received[] = [];
  private readonly plans = new Map<string, number[]>();
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.received.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() });
      const status = this.plans.get(req.url ?? '')?.shift() ?? 200;
      res.writeHead(status, status >= 300 && status < 400 ? { location: `${this.base}/redirected` } : {});
      res.end('ok');
    });
  });
  base = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  plan(path: string, statuses: number[]): void { this.plans.set(path, [...statuses]); }
  at(path: string): Received[] { return this.received.filter((r) => r.path === path); }
  async waitFor(path: string, predicate: (r: Received) => boolean = () => true, timeoutMs = 30_000): Promise<Received> {
    return eventually(async () => this.at(path).find(predicate), timeoutMs, 20);
  }
  close(): Promise<void> { return new Promise((resolve) => this.server.close(() => resolve())); }
}

const TEST_WEBHOOKS = {
  WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
  WEBHOOK_RETRY_INITIAL_MS: '200', WEBHOOK_RETRY_MAX_MS: '400', WEBHOOK_SWEEP_MS: '1000',
};

let h: Harness;
let receiver: Receiver;
let requester: Session;
let admin: Session;
let other: Session;
const ALL_EVENTS = Object.values(WEBHOOK_EVENT);

beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
  h = await startHarness({ env: TEST_WEBHOOKS });
  requester = await loginRequester(h);
  admin = await loginAdmin(h);
  await createExternalUser(h, 'hooks.other@clinic.example', 'Other-Pass-123');
  other = await sessionFor(h, 'hooks.other@clinic.example');
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await receiver?.close();
});

async function register(session: Session, path: string, events: string[] = ALL_EVENTS) {
  const created = await call(h, session, 'POST', '/api/v1/webhook-endpoints', { url: `${receiver.base}${path}`, events });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.secret).toMatch(/^whsec_/);
  return { id: created.body.endpoint.id as number, secret: created.body.secret as string };
}

const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers) as { type: string; data: Record<string, any> };
const db = () => kysely(h.orm.em.fork());

async function submitted(session: Session, lastName: string) {
  const id = await credentialingDraft(h, session, { lastName });
  const sub = await call(h, session, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  return { id, number: sub.body.requestNumber as number };
}

describe('deliveries', () => {
  it('a submission, an approval and the letter reach the owner\'s endpoint, signed; another account\'s endpoint gets none of it', async () => {
    const mine = await register(requester, '/mine');
    const theirs = await register(other, '/theirs');
    const { id, number } = await submitted(requester, 'Webhook');

    const submission = await receiver.waitFor('/mine', (r) => r.body.includes('"statusTo":"Submitted"'));
    const event = verify(mine.secret, submission);
    expect(event.type).toBe(WEBHOOK_EVENT.statusChanged);
    expect(event.data).toMatchObject({ requestId: id, requestNumber: number, requestType: 'credentialing', statusTo: STATUS.submitted });
    // ids, number, kinds, status and links only: nothing of the form
    expect(submission.body).not.toContain('Webhook');
    expect(submission.headers['webhook-id']).toMatch(/^msg_\d+$/);
    expect(() => verify(theirs.secret, submission)).toThrow();

    const message = await call(h, admin, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Your letter', message: 'On its way' });
    expect(message.status, JSON.stringify(message.body)).toBe(201);
    const postedRaw = await receiver.waitFor('/mine', (r) => r.body.includes(WEBHOOK_EVENT.discussionMessage));
    expect(verify(mine.secret, postedRaw).data.message).toMatchObject({ fromOffice: true });
    expect(postedRaw.body).not.toContain('On its way');

    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: true })).status).toBe(200);
    const approved = verify(mine.secret, await receiver.waitFor('/mine', (r) => r.body.includes('"statusTo":"Approved"')));
    expect(approved.data).toMatchObject({ statusFrom: STATUS.submitted, statusTo: STATUS.approved });
    const letter = verify(mine.secret, await receiver.waitFor('/mine', (r) => r.body.includes(WEBHOOK_EVENT.letterIssued), 90_000));
    expect(letter.data.letter.verificationUrl).toMatch(/\/verify\/[0-9A-Z-]+$/);
    expect(letter.data.letter.downloadUrl).toMatch(new RegExp(`/api/v1/documents/${id}/[^/]+%20${number}\\.pdf$`));
    // the link downloads the letter for its owner
    expect((await call(h, requester, 'GET', new URL(letter.data.letter.downloadUrl).pathname)).raw.headers['content-type']).toBe('application/pdf');
    expect(letter.data.letter.kind).toBe('claimHistoryLetter');


    // The other account's endpoint: no delivery row, nothing received.
    const theirRows = await db().selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', theirs.id).execute();
    expect(theirRows).toEqual([]);
    expect(receiver.at('/theirs')).toEqual([]);

    // Listed for the owner with their attempts; administrators see them too; the other account may not.
    const list = await call(h, requester, 'GET', `/api/v1/webhook-endpoints/${mine.id}/deliveries`);
    expect(list.status).toBe(200);
    expect(list.body.data.every((d: { status: string; attemptLog: unknown[] }) => d.status === 'delivered' && d.attemptLog.length === 1)).toBe(true);
    expect((await call(h, admin, 'GET', `/api/v1/webhook-endpoints/${mine.id}/deliveries`)).status).toBe(200);
    expect((await call(h, other, 'GET', `/api/v1/webhook-endpoints/${mine.id}/deliveries`)).status).toBe(403);
    expect((await call(h, other, 'DELETE', `/api/v1/webhook-endpoints/${mine.id}`)).status).toBe(403);
    expect((await call(h, requester, 'DELETE', `/api/v1/webhook-endpoints/${mine.id}`)).status).toBe(200);
    expect((await call(h, other, 'DELETE', `/api/v1/webhook-endpoints/${theirs.id}`)).status).toBe(200);
  }, 180_000);

  it('a receiver answering 500 is retried until it answers 200; each attempt is recorded; "send again" delivers a copy', async () => {
    const { id: endpointId, secret } = await register(requester, '/flaky', [WEBHOOK_EVENT.discussionMessage]);
    receiver.plan('/flaky', [500, 500]);
    const { id } = await submitted(requester, 'Flaky');
    await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Retry', message: 'Are you there?' });
    const delivered = await receiver.waitFor('/flaky', () => receiver.at('/flaky').length === 3);
    verify(secret, delivered);
    const [first, , third] = receiver.at('/flaky');
    expect(third!.headers['webhook-id']).toBe(first!.headers['webhook-id']); // the same message, tried again
    const list = await eventually(async () => {
      const page = await call(h, requester, 'GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries`);
      return page.body.data[0]?.status === 'delivered' && page.body;
    });
    expect(list.data[0].attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
    const endpoint = await db().selectFrom('webhook_endpoints').select(['failing_since']).where('id', '=', endpointId).executeTakeFirstOrThrow();
    expect(endpoint.failing_since).toBeNull();

    const again = await call(h, requester, 'POST', `/api/v1/webhook-deliveries/${list.data[0].id}/resend`);
    expect(again.status).toBe(201);
    const copy = await receiver.waitFor('/flaky', () => receiver.at('/flaky').length === 4);
    expect(copy.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    verify(secret, copy);
    await call(h, requester, 'DELETE', `/api/v1/webhook-endpoints/${endpointId}`);
  }, 120_000);

  it('a redirect is a failure: the Location is never followed', async () => {
    const { id: endpointId } = await register(requester, '/moved', [WEBHOOK_EVENT.discussionMessage]);
    receiver.plan('/moved', [302, 302, 302, 302, 302, 302, 302, 302, 302, 302]);
    const { id } = await submitted(requester, 'Moved');
    await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Redirect', message: 'Hello' });
    const row = await eventually(async () => {
      const r = await db().selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).executeTakeFirst();
      return r && r.attempts >= 2 && r;
    });
    expect(row.status).toBe('pending');
    expect(row.last_status_code).toBe(302);
    expect(row.last_error).toContain('redirects are not followed');
    expect(receiver.at('/redirected')).toEqual([]);
    await call(h, requester, 'DELETE', `/api/v1/webhook-endpoints/${endpointId}`);
  }, 60_000);

  it('a rotated secret: both the new and the previous secret verify each delivery during the overlap', async () => {
    const { id: endpointId, secret: old } = await register(requester, '/rotated', [WEBHOOK_EVENT.discussionMessage]);
    const rotated = await call(h, requester, 'POST', `/api/v1/webhook-endpoints/${endpointId}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(old);
    expect(new Date(rotated.body.previousSecretValidUntil).getTime() - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect((await call(h, other, 'POST', `/api/v1/webhook-endpoints/${endpointId}/rotate-secret`)).status).toBe(403);
    const { id } = await submitted(requester, 'Rotated');
    await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Rotation', message: 'Hello' });
    const delivery = await receiver.waitFor('/rotated');
    expect(delivery.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    verify(fresh, delivery);
    verify(old, delivery);
    // After the overlap, the previous secret no longer signs.
    await db().updateTable('webhook_endpoints').set({ previous_secret_until: new Date(Date.now() - 1000) }).where('id', '=', endpointId).execute();
    await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Rotation', message: 'Again' });
    const later = await eventually(async () => receiver.at('/rotated')[1]);
    verify(fresh, later);
    expect(() => verify(old, later)).toThrow();
    await call(h, requester, 'DELETE', `/api/v1/webhook-endpoints/${endpointId}`);
  }, 60_000);

  it('an endpoint failing for three days is disabled, its owner emailed once; "send again" enables it', async () => {
    const { id: endpointId } = await register(requester, '/down', [WEBHOOK_EVENT.discussionMessage]);
    receiver.plan('/down', [503, 503, 503]);
    await db().updateTable('webhook_endpoints').set({ failing_since: new Date(Date.now() - 73 * 3_600_000) }).where('id', '=', endpointId).execute();
    const { id } = await submitted(requester, 'Down');
    await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Down', message: 'Hello' });
    const mail = await h.sink.waitFor((m) => m.subject === WEBHOOK_MESSAGES.disabledSubject, 30_000);
    expect(mail.text).toContain(`${receiver.base}/down`);
    // The mark follows the mail (sent, then marked): waited for, as the sink may see the mail first.
    const endpoint = await eventually(async () => {
      const e = await db().selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirstOrThrow();
      return e.disabled_emailed_at !== null && e;
    });
    expect(endpoint.disabled_at).not.toBeNull();
    const [delivery] = await db().selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).execute();
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempts).toBe(1); // disabled at the first failure past three days: no further attempt
    // A disabled endpoint is owed nothing new.
    await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Down', message: 'Still there?' });
    expect(await db().selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId).execute()).toHaveLength(1);
    // Send again: enabled, delivered (the receiver answers 503 twice more, then 200).
    expect((await call(h, requester, 'POST', `/api/v1/webhook-deliveries/${delivery!.id}/resend`)).status).toBe(201);
    await eventually(async () => {
      const e = await db().selectFrom('webhook_endpoints').select(['disabled_at', 'failing_since']).where('id', '=', endpointId).executeTakeFirstOrThrow();
      return e.disabled_at === null && e.failing_since === null && receiver.at('/down').length === 4;
    });
    expect(h.sink.messages().filter((m) => m.subject === WEBHOOK_MESSAGES.disabledSubject)).toHaveLength(1);
    await call(h, requester, 'DELETE', `/api/v1/webhook-endpoints/${endpointId}`);
  }, 60_000);

  it('latency: p95 from a message posted to its signed delivery, one at a time', async () => {
    const { id: endpointId, secret } = await register(requester, '/latency', [WEBHOOK_EVENT.discussionMessage]);
    const { id } = await submitted(requester, 'Latency');
    const times: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const before = receiver.at('/latency').length;
      const started = performance.now();
      await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Latency', message: `Ping ${i}` });
      const got = await eventually(async () => receiver.at('/latency')[before], 10_000, 5);
      verify(secret, got);
      times.push(got.at - started);
    }
    times.sort((a, b) => a - b);
    const p95 = times[Math.ceil(times.length * 0.95) - 1]!;
    console.log(`webhook delivery latency at concurrency 1 (20 events): median ${Math.round(times[10]!)} ms, p95 ${Math.round(p95)} ms, max ${Math.round(times.at(-1)!)} ms`);
    expect(p95).toBeLessThan(1000);
    await call(h, requester, 'DELETE', `/api/v1/webhook-endpoints/${endpointId}`);
  }, 120_000);
});

describe('registration: where webhooks may go (private targets not allowed)', () => {
  let strict: Harness;
  beforeAll(async () => { strict = await startHarness({ worker: false, env: { WEBHOOK_ALLOW_HTTP: '1' } }); }, 60_000);
  afterAll(async () => { await strict?.stop(); });

  const refusal = async (url: string) => {
    const session = await sessionFor(strict, (requester.user as { email: string }).email);
    const res = await call(strict, session, 'POST', '/api/v1/webhook-endpoints', { url, events: ALL_EVENTS });
    return res;
  };

  it.each([
    ['loopback', 'http://127.0.0.1:9/hook'],
    ['loopback IPv6', 'http://[::1]/hook'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
    ['a name resolving to loopback', 'http://localhost/hook'],
    ['private 10/8', 'http://10.1.2.3/hook'],
    ['private 192.168/16', 'http://192.168.0.10/hook'],
    ['CGNAT', 'http://100.64.0.1/hook'],
    ['unique-local IPv6', 'http://[fd00::1]/hook'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['link-local IPv6', 'http://[fe80::1]/hook'],
    ['unspecified', 'http://0.0.0.0/hook'],
    ['multicast', 'http://224.0.0.1/hook'],
  ])('refuses %s', async (_label, url) => {
    const res = await refusal(url);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(JSON.stringify(res.body)).toContain(WEBHOOK_URL_MESSAGES.forbiddenAddress);
  });

  it('refuses a user name in the URL and a host that does not resolve; admits only external accounts', async () => {
    expect(JSON.stringify((await refusal('http://user:pw@203.0.114.1/')).body)).toContain(WEBHOOK_URL_MESSAGES.credentials);
    expect(JSON.stringify((await refusal('http://no-such-host.invalid/')).body)).toContain(WEBHOOK_URL_MESSAGES.unresolved);
    const adminSession = await loginAdmin(strict);
    expect((await call(strict, adminSession, 'POST', '/api/v1/webhook-endpoints', { url: 'https://example.org/', events: ALL_EVENTS })).status).toBe(403);
  });

  it('the same rule holds at delivery: an address registered while allowed is refused once the setting is off', async () => {
    const { webhookUrlRefusal } = await import('../../services/webhooks/webhook-targets');
    const policy = { allowHttp: false, allowPrivateTargets: false };
    expect(await webhookUrlRefusal('http://example.org/', policy)).toBe(WEBHOOK_URL_MESSAGES.scheme);
    // A resolver that answers a public address for one name and loopback for the other (rebinding): refused.
    const lookup = async (host: string) => [{ address: host === 'public.example' ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    expect(await webhookUrlRefusal('https://public.example/', policy, lookup)).toBeNull();
    expect(await webhookUrlRefusal('https://rebound.example/', policy, lookup)).toBe(WEBHOOK_URL_MESSAGES.forbiddenAddress);
  });
});
