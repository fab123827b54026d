/**
 * Abuse limits, against the real PostgreSQL: sign-in limits that two API processes share, that see
 * the client behind a trusted proxy and that never keep the owner's own browser out; the upload check made before a
 * byte is read; per-user quotas with clear 429s, exact under bursts; uploads no document took up removed after a day.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_USER_QUOTAS, QUOTAS, QUOTA_MESSAGES, SIGN_IN_CHECK, SIGN_IN_LIMITS, SIGN_IN_MESSAGES, quotaMessage } from '../../domain/abuse-limits';
import { DiscussionSchema } from '../../db/entities';
import type { SessionUser } from '../../contract/session-user.schema';
import { writeWithinQuota } from '../../services/limits/quotas';
import { MESSAGES } from '../../domain';
import { sweepUnreferencedUploads } from '../../services/documents/uploads';
import { SAMPLE_PDF, call, createExternalUser, credentialingDraft, login, loginAdmin, loginRequester, upload, type Session } from '../support/api-helpers';
import { DEFAULT_QUOTAS_ENV, resetRateLimits, startHarness, type Harness } from '../support/portal-harness';
import { apiErrorOf, type ApiError } from '../../api/errors';

let h: Harness;
/** A second API process on the same database (as behind a load balancer). */
let second: Harness;
beforeAll(async () => {
  [h, second] = await Promise.all([
    startHarness({ worker: false, env: DEFAULT_QUOTAS_ENV }),
    startHarness({ worker: false, env: { ...DEFAULT_QUOTAS_ENV, TRUST_PROXY: '127.0.0.1' } }),
  ]);
});
afterAll(async () => { await Promise.all([h?.stop(), second?.stop()]); });
beforeEach(async () => { await resetRateLimits(h.orm.em); });

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  h.orm.em.fork().getConnection().execute(text, params, 'all') as Promise<T[]>;

let counter = 0;
async function freshAccount(): Promise<{ email: string; password: string }> {
  counter += 1;
  const email = `limits-${Date.now()}-${counter}@clinic.example`;
  await createExternalUser(h, email, 'Limits-Pass1');
  return { email, password: 'Limits-Pass1' };
}

async function signIn(app: Harness, email: string, password: string, options: { ip?: string; cookie?: string; forwardedFor?: string } = {}) {
  const res = await app.app.inject({
    method: 'POST', url: '/api/v1/authentication', remoteAddress: options.ip ?? '127.0.0.1',
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}) },
    payload: { strategy: 'local', email, password },
  });
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('coi_device='));
  return { status: res.statusCode, body: res.json(), cookie: setCookie?.split(';')[0] };
}

/**
 * Fills an account's failure window from strange browsers, alternating API processes and addresses: the first
 * failures for real, until the account asks each further guess for a solved check (both processes ask, so they share
 * the count); the rest of the window as those guesses, each with its check, would have filled it (solving the checks
 * here would cost this machine a minute of CPU: tests/api/sign-in-bursts.test.ts solves some).
 */
async function failOnAccount(email: string, network: string) {
  for (let i = 0; i < SIGN_IN_CHECK.accountFreeFailures; i += 1) {
    const app = i % 2 === 0 ? h : second; // alternating processes, and addresses
    expect((await signIn(app, email, 'Wrong-Pass1', { ip: `${network}.${i}.1` })).body.message).toBe(MESSAGES.loginFailed);
  }
  for (const app of [h, second]) {
    expect((await signIn(app, email, 'Wrong-Pass1', { ip: `${network}.99.1` })).body.data).toMatchObject({ reason: 'checkRequired' });
  }
  await sql('update rate_limit_counters set hits = ? where key = ?', [SIGN_IN_LIMITS.account.max, `signin|account|${email}`]);
}

describe('sign-in limits', () => {
  it('counts failures on an account across both API processes: the 21st attempt from a strange browser hears 429', async () => {
    const { email, password } = await freshAccount();
    await failOnAccount(email, '10.20');
    const refused = await signIn(h, email, password, { ip: '10.21.0.1' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ name: 'TooManyRequests', message: QUOTA_MESSAGES.signInAccount });
    expect((await signIn(second, email, password, { ip: '10.21.0.2' })).status).toBe(429);
  });

  it("never keeps the owner's own browser out: a browser that signed in before is exempt from the account's count", async () => {
    const { email, password } = await freshAccount();
    const first = await signIn(h, email, password, { ip: '10.30.0.1' });
    expect(first.status).toBe(200);
    expect(first.cookie).toMatch(/^coi_device=/);
    await failOnAccount(email, '10.31');
    expect((await signIn(h, email, password, { ip: '10.32.0.1' })).status).toBe(429); // the attacker's side
    const owner = await signIn(second, email, password, { ip: '10.30.0.1', cookie: first.cookie });
    expect(owner.status).toBe(200);
    // A forged or foreign cookie buys nothing.
    const forged = `${first.cookie!.slice(0, -3)}abc`;
    expect((await signIn(h, email, password, { ip: '10.33.0.1', cookie: forged })).status).toBe(429);
    const other = await freshAccount();
    const otherCookie = (await signIn(h, other.email, other.password, { ip: '10.34.0.1' })).cookie;
    expect((await signIn(h, email, password, { ip: '10.34.0.1', cookie: otherCookie })).status).toBe(429);
  });

  it('slows one address spraying passwords across many emails with a check (not a refusal), and only that address', async () => {
    const { email, password } = await freshAccount();
    for (let i = 0; i < SIGN_IN_LIMITS.address.max; i += 1) {
      expect((await signIn(i % 2 ? h : second, `spray-${i}@nowhere.example`, 'Summer2026!', { ip: '10.40.0.1' })).status).toBe(401);
    }
    // Both processes share the full window: the next attempt must carry a solved check (tests/api/sign-in-bursts.test.ts).
    const asked = await signIn(second, email, password, { ip: '10.40.0.1' });
    expect(asked.status).toBe(401);
    expect(asked.body).toMatchObject({ message: SIGN_IN_MESSAGES.checkRequired, data: { reason: 'checkRequired' } });
    expect((await signIn(h, email, password, { ip: '10.40.0.2' })).status).toBe(200);
    const [{ n }] = await sql<{ n: string }>(`select count(*) as n from security_events where kind = 'signInThrottled' and ip = '10.40.0.1'`);
    expect(Number(n)).toBe(1);
  });

  it("shares the routes' own limits between API processes (reset links: 10 a minute per address)", async () => {
    const ask = (app: Harness) => app.app.inject({ method: 'POST', url: '/api/v1/password-reset', remoteAddress: '10.60.0.1', payload: { email: 'nobody-here@clinic.example' } });
    for (let i = 0; i < 10; i += 1) expect((await ask(i % 2 ? h : second)).statusCode).toBeLessThan(300);
    const refused = await ask(second);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ name: 'TooManyRequests', message: QUOTA_MESSAGES.tooManyCalls });
  });

  it('sees the client behind a trusted proxy (TRUST_PROXY) and logs each sign-in with that address', async () => {
    const { email, password } = await freshAccount();
    expect((await signIn(second, email, 'Wrong-Pass1', { forwardedFor: '198.51.100.7' })).status).toBe(401);
    expect((await signIn(second, email, password, { forwardedFor: '198.51.100.8' })).status).toBe(200);
    // The process without TRUST_PROXY ignores the header: the caller could write anything there.
    expect((await signIn(h, email, password, { ip: '10.50.0.1', forwardedFor: '203.0.113.9' })).status).toBe(200);
    const rows = await sql<{ kind: string; ip: string }>(`select kind, ip from security_events where email = ? and kind like 'signIn%' order by id`, [email]);
    expect(rows).toEqual([
      { kind: 'signInFailed', ip: '198.51.100.7' },
      { kind: 'signInSucceeded', ip: '198.51.100.8' },
      { kind: 'signInSucceeded', ip: '10.50.0.1' },
    ]);
  });
});

describe('uploads', () => {
  let requester: Session;
  let admin: Session;
  beforeAll(async () => { [requester, admin] = await Promise.all([loginRequester(h), loginAdmin(h)]); });

  const multipart = (parts: Array<{ name: string; value: string | Buffer; filename?: string }>) => {
    const boundary = `----limits${Math.random().toString(16).slice(2)}`;
    const chunks = parts.flatMap((part) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"\r\nContent-Type: application/pdf` : ''}\r\n\r\n`),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), Buffer.from('\r\n'),
    ]);
    return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
  };
  const post = (session: Session, body: ReturnType<typeof multipart>) => h.app.inject({
    method: 'POST', url: '/api/v1/upload', payload: body.payload,
    headers: { authorization: `Bearer ${session.token}`, 'content-type': body.contentType },
  });

  it("checks who may upload before reading the file: a too-large file for someone else's request is refused as forbidden, not as too large", async () => {
    const adminDraft = await call(h, admin, 'POST', '/api/v1/requests', { requestType: 'credentialing' });
    const tooLarge = Buffer.concat([SAMPLE_PDF, Buffer.alloc(h.config.uploadMaxBytes + 1024)]);
    const res = await post(requester, multipart([{ name: 'requestId', value: String(adminDraft.body.id) }, { name: 'file', value: tooLarge, filename: 'big.pdf' }]));
    expect(res.statusCode).toBe(403);
    const own = await call(h, requester, 'POST', '/api/v1/requests', { requestType: 'credentialing' });
    const ownRes = await post(requester, multipart([{ name: 'requestId', value: String(own.body.id) }, { name: 'file', value: tooLarge, filename: 'big.pdf' }]));
    expect(ownRes.statusCode).toBe(413);
    await call(h, requester, 'DELETE', `/api/v1/requests/${own.body.id}`);
  });

  it('wants the request id before the file', async () => {
    const own = await call(h, requester, 'POST', '/api/v1/requests', { requestType: 'credentialing' });
    const res = await post(requester, multipart([{ name: 'file', value: SAMPLE_PDF, filename: 'a.pdf' }, { name: 'requestId', value: String(own.body.id) }]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ name: 'BadRequest', errors: { requestId: MESSAGES.required } });
    await call(h, requester, 'DELETE', `/api/v1/requests/${own.body.id}`);
  });

  it("refuses a user's uploads past the day's bytes with a clear 429, and keeps nothing of the refused file", async () => {
    const email = `uploader-${Date.now()}@clinic.example`;
    await createExternalUser(h, email, 'Upload-Pass1');
    const uploader = await login(h, email, 'Upload-Pass1');
    const draft = await call(h, uploader, 'POST', '/api/v1/requests', { requestType: 'certificate' });
    expect((await upload(h, uploader, draft.body.id, 'first.pdf', SAMPLE_PDF)).status).toBe(201);
    // Most of the day's bytes already sent (a row as the upload route writes it).
    await sql('insert into uploads (stored_name, user_id, request_id, size) values (?, ?, ?, ?)',
      [`r${draft.body.id}-quota-filler.pdf`, uploader.user.id, draft.body.id, QUOTAS.uploadBytesPerDay.max - 100]);
    const before = await sql<{ n: string }>('select count(*) as n from uploads where user_id = ?', [uploader.user.id]);
    const refused = await upload(h, uploader, draft.body.id, 'second.pdf', SAMPLE_PDF);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ name: 'TooManyRequests', message: quotaMessage.uploadBytesPerDay(QUOTAS.uploadBytesPerDay.max), data: { quota: 'uploadBytesPerDay' } });
    expect(await sql('select count(*) as n from uploads where user_id = ?', [uploader.user.id])).toEqual(before);
    // Administrators are not counted.
    expect((await upload(h, admin, draft.body.id, 'admin.pdf', SAMPLE_PDF)).status).toBe(201);
  });

  it('removes uploads no document took up within a day, bytes and row, and keeps the rest', async () => {
    const id = await credentialingDraft(h, requester); // one upload taken up by a document
    const orphan = await upload(h, requester, id, 'orphan.pdf', SAMPLE_PDF);
    const fresh = await upload(h, requester, id, 'fresh.pdf', SAMPLE_PDF);
    expect(orphan.status).toBe(201);
    await sql(`update uploads set created_at = now() - interval '25 hours' where request_id = ? and stored_name <> ?`, [id, fresh.body.storedName]);
    await writeFile(h.files.pathOf('unregistered-legacy.pdf'), SAMPLE_PDF); // bytes without a row are not ours to judge
    const removed = await sweepUnreferencedUploads(h.orm.em.fork(), (name) => h.files.remove(name));
    expect(removed).toContain(orphan.body.storedName);
    expect(removed).not.toContain(fresh.body.storedName);
    const kept = await sql<{ stored_name: string }>('select stored_name from uploads where request_id = ?', [id]);
    expect(kept.map((r) => r.stored_name)).toContain(fresh.body.storedName);
    expect(kept).toHaveLength(2); // the document's upload and the fresh one
    const documents = await call(h, requester, 'GET', `/api/v1/documents?requestId=${id}`);
    const download = await call(h, requester, 'GET', `/api/v1/documents/${id}/${encodeURIComponent(documents.body.data[0].name)}`);
    expect(download.status).toBe(200);
    await expect(import('node:fs/promises').then((fs) => fs.stat(h.files.pathOf(orphan.body.storedName)))).rejects.toThrow();
  });
});

describe('quotas', () => {
  it('holds a user to the open drafts quota; deleting a draft frees a place; administrators are not counted', async () => {
    const email = `drafter-${Date.now()}@clinic.example`;
    await createExternalUser(h, email, 'Draft-Pass1');
    const user = await login(h, email, 'Draft-Pass1');
    const ids: number[] = [];
    for (let i = 0; i < QUOTAS.openDrafts; i += 1) {
      const created = await call(h, user, 'POST', '/api/v1/requests', { requestType: 'certificate' });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const refused = await call(h, user, 'POST', '/api/v1/requests', { requestType: 'certificate' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ name: 'TooManyRequests', message: quotaMessage.openDrafts(QUOTAS.openDrafts), data: { quota: 'openDrafts' } });
    expect((await call(h, user, 'DELETE', `/api/v1/requests/${ids[0]}`)).status).toBe(200);
    expect((await call(h, user, 'POST', '/api/v1/requests', { requestType: 'certificate' })).status).toBe(201);
    const [{ n }] = await sql<{ n: string }>(`select count(*) as n from security_events where kind = 'quotaRefused' and user_id = ?`, [user.user.id]);
    expect(Number(n)).toBe(1);
  });

  it('lets exactly the open drafts quota through a burst of creations sent at once, on two API processes', async () => {
    const email = `burst-drafter-${Date.now()}@clinic.example`;
    await createExternalUser(h, email, 'Draft-Pass1');
    const user = await login(h, email, 'Draft-Pass1');
    const asked = QUOTAS.openDrafts + 15;
    const answers = await Promise.all(Array.from({ length: asked }, (_, i) =>
      call(i % 2 ? second : h, user, 'POST', '/api/v1/requests', { requestType: 'certificate' })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(QUOTAS.openDrafts);
    expect(answers.filter((a) => a.status === 429 && a.body.data.quota === 'openDrafts')).toHaveLength(asked - QUOTAS.openDrafts);
    const [{ n }] = await sql<{ n: string }>(`select count(*) as n from requests where requester_id = ? and status = 'Draft'`, [user.user.id]);
    expect(Number(n)).toBe(QUOTAS.openDrafts);
  });

  it('holds a user to the messages an hour', async () => {
    const requester = await loginRequester(h);
    const id = await credentialingDraft(h, requester);
    await sql(`insert into discussions (created_at, updated_at, request_id, discussion_id, sender, sender_email, topic, message)
      select now() - interval '10 minutes', now(), ?, 'quota-thread', 'R', ?, 'Topic', 'Earlier message' from generate_series(1, ?)`,
    [id, requester.user.email, QUOTAS.messagesPerHour.max]);
    const refused = await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'One more', message: 'Hello' });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(quotaMessage.messagesPerHour(QUOTAS.messagesPerHour.max));
  });

  it('lets exactly the messages-an-hour quota through a burst of posts at once, on two API processes', async () => {
    const email = `burst-poster-${Date.now()}@clinic.example`;
    await createExternalUser(h, email, 'Poster-Pass1');
    const poster = await login(h, email, 'Poster-Pass1');
    const id = await credentialingDraft(h, poster);
    const quotas = { ...DEFAULT_USER_QUOTAS, messagesPerHour: 5 };
    // The step a post takes before it reaches the request's workflow (services/discussions/discussions.ts): here with a quota of
    // five, since these portals run without a worker to post to.
    const answers = await Promise.allSettled(Array.from({ length: 15 }, (_, i) => {
      const portal = i % 2 ? second : h;
      return writeWithinQuota(portal.orm.em.fork(), poster.user as SessionUser, quotas, 'messagesPerHour', async (tx) => {
        tx.create(DiscussionSchema, {
          requestId: id, discussionId: 'BURST', topic: 'Burst', message: `Message ${i}`, sender: 'Poster', senderEmail: email,
          senderUserId: poster.user.id, fromAdmin: false, deletedAt: null,
        });
        await tx.flush();
      });
    }));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(5);
    const refused = answers.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    // As the API answers the use case's refusal.
    const answered = refused.map((a) => apiErrorOf(a.reason) as ApiError);
    expect(answered.map((e) => [e.code, e.message])).toEqual(Array(10).fill([429, quotaMessage.messagesPerHour(5)]));
    const [{ n }] = await sql<{ n: string }>('select count(*) as n from discussions where request_id = ?', [id]);
    expect(Number(n)).toBe(5);
  });

  it('refuses more additional recipients than the form allows, with the message on the field', async () => {
    const requester = await loginRequester(h);
    const addresses = Array.from({ length: QUOTAS.additionalRecipients + 1 }, (_, i) => `cc${i}@clinic.example`).join('; ');
    const id = await credentialingDraft(h, requester, { addlRecipients: addresses });
    const submit = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(submit.status).toBe(400);
    expect(submit.body.errors.addlRecipients).toBe(QUOTA_MESSAGES.additionalRecipients);
  });
});
