/**
 * API keys of external accounts, against real PostgreSQL and Temporal: the key is shown once and stored as its hash;
 * a key acts as its account with its scopes only, never an administrator's rights nor another account's requests;
 * revoked keys and keys past their calls a minute are refused; every use (once a minute) and refusal is logged.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { pooled } from '../../db/kysely';
import { clearHits } from '../../services/limits/rate-limits';
import { API_KEY_ROUTES } from '../../api/sessions/api-key-routes';
import { call, certificateDraft, createExternalUser, loginAdmin, loginEmployee, sessionFor, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

/** A small limit, so the limit's test is quick; every other test here stays well under it with a key of its own. */
const CALLS_PER_MINUTE = 25;

let h: Harness;
let admin: Session;
let owner: Session;
let other: Session;
const stamp = `${process.pid}-${Date.now()}`;

beforeAll(async () => {
  h = await startHarness({ env: { API_KEY_CALLS_PER_MINUTE: String(CALLS_PER_MINUTE), API_KEY_CALLS_PER_2_SECONDS: String(CALLS_PER_MINUTE) } });
  admin = await loginAdmin(h);
  await createExternalUser(h, `keys-owner-${stamp}@clinic.example`, 'Owner-Pass1');
  await createExternalUser(h, `keys-other-${stamp}@hospital.example`, 'Other-Pass1');
  owner = await sessionFor(h, `keys-owner-${stamp}@clinic.example`);
  other = await sessionFor(h, `keys-other-${stamp}@hospital.example`);
});
afterAll(async () => { await h?.stop(); });

const ALL_SCOPES = ['requests:read', 'requests:write', 'letters:read'];

async function newKey(session: Session, scopes = ALL_SCOPES, name = 'Credentialing system'): Promise<{ id: number; key: string; prefix: string }> {
  const res = await call(h, session, 'POST', '/api/v1/api-keys', { name, scopes });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A call as an organisation's system makes it. */
const withKey = (key: string, method: string, url: string, payload?: unknown) => call(h, { token: key, user: {} }, method, url, payload);

type Line = { kind: string; email: string | null; userId: number | null; detail: Record<string, unknown> };
const logLines = async (kind: string, email?: string): Promise<Line[]> => {
  const res = await call(h, admin, 'GET', `/api/v1/security-log?kind=${kind}&$limit=200${email ? `&email=${encodeURIComponent(email)}` : ''}`);
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('creating a key', () => {
  it('shows the key once and stores only its SHA-256', async () => {
    const created = await newKey(owner, ['requests:read']);
    expect(created.key).toMatch(/^coi_[a-z2-7]{8}_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(`coi_${created.prefix}_`)).toBe(true);
    const listed = await call(h, owner, 'GET', '/api/v1/api-keys');
    const mine = listed.body.find((k: { id: number }) => k.id === created.id);
    expect(mine).toMatchObject({ name: 'Credentialing system', prefix: created.prefix, scopes: ['requests:read'], lastUsedAt: null, revokedAt: null });
    expect(JSON.stringify(listed.body)).not.toContain(created.key.slice(13));
    const { rows: [row] } = await sql<{ secret_hash: Buffer; text: string }>`select "secret_hash", row_to_json(k)::text as "text" from "api_keys" k where "id" = ${created.id}`.execute(pooled(h.orm.em));
    expect(row.secret_hash.equals(createHash('sha256').update(created.key).digest())).toBe(true);
    expect(row.text).not.toContain(created.key.slice(13));
    expect((await logLines('apiKeyCreated', owner.user.email)).map((l) => l.detail.keyId)).toContain(created.id);
  });

  it('is for confirmed external accounts only: staff and administrators hold none', async () => {
    const employee = await loginEmployee(h);
    expect((await call(h, employee, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['requests:read'] })).status).toBe(403);
    expect((await call(h, admin, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['requests:read'] })).status).toBe(403);
    await createExternalUser(h, `keys-unconfirmed-${stamp}@clinic.example`, 'Unconf-Pass1', { confirmed: false });
    const unconfirmed = await sessionFor(h, `keys-unconfirmed-${stamp}@clinic.example`);
    expect((await call(h, unconfirmed, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['requests:read'] })).status).toBe(403);
    expect((await call(h, owner, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['everything'] })).status).toBe(400);
  });
});

describe('calling with a key', () => {
  it('creates and submits a request, reads it and its letters, as its account', async () => {
    const { key } = await newKey(owner);
    const created = await withKey(key, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType: 'Clinician',
      certificateHolder: 'Mercy Hospital', certificateHolderAddress: '1 Main St, Portland, OR 97201', lastName: 'Nguyen', firstName: 'Ava',
      dateFrom: '2025-01-01T11:00:00.000Z', dateTo: '2025-06-30T11:00:00.000Z', facilityName: 'Mercy Hospital' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const submitted = await withKey(key, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.status).toBe('Submitted');
    // The owner's own session sees what the key made: one account.
    expect((await call(h, owner, 'GET', `/api/v1/requests/${id}`)).body.requesterEmail ?? owner.user.email).toBe(owner.user.email);
    const list = await withKey(key, 'GET', '/api/v1/requests');
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: number }) => r.id)).toContain(id);
    expect((await withKey(key, 'GET', `/api/v1/requests/${id}/certificates`)).status).toBe(200);
    expect((await withKey(key, 'GET', `/api/v1/documents?requestId=${id}`)).status).toBe(200);
  });

  it('never reaches another account\'s request: the answer is the one its owner would get', async () => {
    const theirs = await certificateDraft(h, other, 'Clinician');
    const { key } = await newKey(owner);
    for (const [method, url, body] of [
      ['GET', `/api/v1/requests/${theirs}`], ['PATCH', `/api/v1/requests/${theirs}`, { lastName: 'Taken' }],
      ['GET', `/api/v1/requests/${theirs}/certificates`], ['GET', `/api/v1/documents?requestId=${theirs}`],
    ] as const) {
      const asOwner = await call(h, owner, method, url, body);
      const asKey = await withKey(key, method, url, body);
      expect([403, 404]).toContain(asKey.status);
      expect(asKey.status, `${method} ${url}`).toBe(asOwner.status);
    }
    const list = await withKey(key, 'GET', '/api/v1/requests');
    expect(list.body.data.map((r: { id: number }) => r.id)).not.toContain(theirs);
  });

  it('is refused (403) a route its scopes do not cover', async () => {
    const { key, id } = await newKey(owner, ['requests:read']);
    const mine = await certificateDraft(h, owner, 'Clinician');
    expect((await withKey(key, 'GET', `/api/v1/requests/${mine}`)).status).toBe(200);
    const write = await withKey(key, 'POST', '/api/v1/requests', { requestType: 'certificate' });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ name: 'Forbidden', code: 403, className: 'forbidden', data: { reason: 'apiKeyScope', scope: 'requests:write' } });
    expect((await withKey(key, 'GET', `/api/v1/requests/${mine}/certificates`)).status).toBe(403);
    const lines = (await logLines('apiKeyRefused', owner.user.email)).filter((l) => l.detail.keyId === id);
    expect(lines.map((l) => l.detail.reason)).toContain('scope');
  });

  it('walks every route a key may not call and is answered 403 on each, administrators\' routes included', async () => {
    const { key, id } = await newKey(owner);
    // Even with its owner's address on the admin list: an external account is never an administrator.
    await call(h, admin, 'POST', '/api/v1/admins', { firstName: 'Key', lastName: 'Owner', email: owner.user.email });
    const doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const allowed = new Set(Object.keys(API_KEY_ROUTES).map((k) => k.replace(/:(\w+)/g, '{$1}')));
    const wrong: string[] = [];
    let walked = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const route = `${method.toUpperCase()} ${path}`;
        if (allowed.has(route) || (Array.isArray(operation.security) && operation.security.length === 0)) continue;
        const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'code' || name === 'name' || name === 'token' ? 'x' : '1'));
        await Promise.all([`api-key:${id}`, `api-key-burst:${id}`].map((k) => clearHits(h.orm.em, k))); // the walk is longer than the test's small limits
        const res = await withKey(key, method.toUpperCase(), url, method === 'get' || method === 'delete' ? undefined : {});
        walked += 1;
        if (res.status !== 403) wrong.push(`${route}: ${res.status}`);
      }
    }
    expect(walked).toBeGreaterThan(60);
    expect(wrong).toEqual([]);
    await call(h, admin, 'GET', '/api/v1/admins').then(async (admins) => {
      const row = admins.body.find((a: { email: string }) => a.email === owner.user.email);
      if (row) await call(h, admin, 'DELETE', `/api/v1/admins/${row.id}`);
    });
  });

  it('refuses a key that is unknown, malformed or forged (401) and logs it', async () => {
    const { key } = await newKey(owner);
    const forged = `${key.slice(0, -4)}AAAA`;
    for (const token of [forged, 'coi_nothing', `coi_aaaaaaaa_${'A'.repeat(43)}`]) {
      const res = await withKey(token, 'GET', '/api/v1/requests');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ name: 'NotAuthenticated', data: { reason: 'apiKeyInvalid' } });
    }
    expect((await logLines('apiKeyRefused')).some((l) => l.detail.reason === 'invalid')).toBe(true);
  });
});

describe('revoking', () => {
  it('by its owner: the key is refused (401) from the next call on; another account cannot', async () => {
    const { key, id } = await newKey(owner);
    expect((await withKey(key, 'GET', '/api/v1/requests')).status).toBe(200);
    expect((await call(h, other, 'DELETE', `/api/v1/api-keys/${id}`)).status).toBe(404);
    expect((await withKey(key, 'GET', '/api/v1/requests')).status).toBe(200);
    const revoked = await call(h, owner, 'DELETE', `/api/v1/api-keys/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toBeTruthy();
    const refused = await withKey(key, 'GET', '/api/v1/requests');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ message: 'This API key has been revoked.', data: { reason: 'apiKeyRevoked' } });
    const lines = await logLines('apiKeyRefused'); // a revoked key's line names its owner by id: its owner is not read
    expect(lines.some((l) => l.detail.keyId === id && l.userId === owner.user.id && l.detail.reason === 'revoked')).toBe(true);
    expect((await logLines('apiKeyRevoked', owner.user.email)).some((l) => l.detail.keyId === id)).toBe(true);
  });

  it('by an administrator, who sees every account\'s keys with their owner', async () => {
    const { key, id } = await newKey(other, ['requests:read'], 'Hospital HR');
    const all = await call(h, admin, 'GET', '/api/v1/admin/api-keys');
    expect(all.status).toBe(200);
    expect(all.body.find((k: { id: number }) => k.id === id)).toMatchObject({ name: 'Hospital HR', owner: { email: other.user.email } });
    expect((await call(h, owner, 'GET', '/api/v1/admin/api-keys')).status).toBe(403);
    expect((await call(h, admin, 'DELETE', `/api/v1/api-keys/${id}`)).status).toBe(200);
    expect((await withKey(key, 'GET', '/api/v1/requests')).status).toBe(401);
    expect((await call(h, other, 'GET', '/api/v1/api-keys')).body.find((k: { id: number }) => k.id === id).revokedAt).toBeTruthy();
  });

  it('a key is a key of its account: none can manage keys with one', async () => {
    const { key } = await newKey(owner);
    expect((await withKey(key, 'GET', '/api/v1/api-keys')).status).toBe(403);
    expect((await withKey(key, 'POST', '/api/v1/api-keys', { name: 'More', scopes: ['requests:read'] })).status).toBe(403);
  });
});

describe('limits and the log', () => {
  it(`answers 429 with Retry-After past ${CALLS_PER_MINUTE} calls a minute, per key`, async () => {
    const { key, id } = await newKey(owner, ['requests:read']);
    const second = await newKey(owner, ['requests:read']);
    const statuses: number[] = [];
    for (let i = 0; i < CALLS_PER_MINUTE + 2; i += 1) statuses.push((await withKey(key, 'GET', '/api/v1/requests?$limit=1')).status);
    expect(statuses.slice(0, CALLS_PER_MINUTE).every((s) => s === 200)).toBe(true);
    const over = await withKey(key, 'GET', '/api/v1/requests?$limit=1');
    expect(over.status).toBe(429);
    expect(Number(over.raw.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body).toMatchObject({ name: 'TooManyRequests', code: 429, className: 'too-many-requests', data: { reason: 'apiKeyLimit' } });
    expect(over.body.message).toMatch(/^This API key has made too many calls/);
    // Another key of the same account, and the account's own session, are not held by it.
    expect((await withKey(second.key, 'GET', '/api/v1/requests?$limit=1')).status).toBe(200);
    expect((await call(h, owner, 'GET', '/api/v1/requests?$limit=1')).status).toBe(200);
    // Many refusals in the minute, one line.
    const lines = (await logLines('apiKeyRefused')).filter((l) => l.detail.keyId === id && l.detail.reason === 'overLimit');
    expect(lines).toHaveLength(1);
  });

  it('logs a key\'s use and sets its last use at most once a minute', async () => {
    const { key, id } = await newKey(owner, ['requests:read']);
    for (let i = 0; i < 5; i += 1) expect((await withKey(key, 'GET', '/api/v1/requests?$limit=1')).status).toBe(200);
    const used = (await logLines('apiKeyUsed', owner.user.email)).filter((l) => l.detail.keyId === id);
    expect(used).toHaveLength(1);
    expect(used[0]).toMatchObject({ userId: owner.user.id, detail: { route: '/api/v1/requests', method: 'GET' } });
    const listed = (await call(h, owner, 'GET', '/api/v1/api-keys')).body.find((k: { id: number }) => k.id === id);
    expect(listed.lastUsedAt).toBeTruthy();
  });

  it('a key of an account that is deactivated, or is no longer external, is refused', async () => {
    await createExternalUser(h, `keys-gone-${stamp}@clinic.example`, 'Gone-Pass1');
    const gone = await sessionFor(h, `keys-gone-${stamp}@clinic.example`);
    const first = await newKey(gone);
    await sql`update "users" set "is_external" = false where "id" = ${gone.user.id}`.execute(pooled(h.orm.em));
    expect((await withKey(first.key, 'GET', '/api/v1/requests')).status).toBe(401);
    await sql`update "users" set "is_external" = true, "deleted_at" = now() where "id" = ${gone.user.id}`.execute(pooled(h.orm.em));
    const res = await withKey(first.key, 'GET', '/api/v1/requests');
    expect(res.status).toBe(401);
    expect(res.body.data.reason).toBe('inactiveUser');
  });
});
