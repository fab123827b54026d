/**
 * A seeded fuzz of every route's body, query and path parameters: at least 200 cases a route
 * (FUZZ_CASES raises it; FUZZ_SEED replays a run), sent as an administrator (the widest rights) and as an external
 * requester, half each. Every answer must be below 500, and every refused call (4xx) must leave the database as it
 * was: a counter of committed row changes in the tables users see is read around each case.
 *
 * Not fuzzed: `DELETE /authentication` (it only ends the caller's session; no input) and `GET /events` (a stream that
 * never ends; its only input is the token, covered by tests/api/request-events.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, throwaway, type Fixtures, type Persona } from '../support/access-fixtures';
import { multipart, ROUTE_CALLS, type RouteCall } from '../support/route-calls';
import { ownDatabase } from '../support/own-database';
import { startHarness, type Harness } from '../support/portal-harness';
import { seededRandom } from '../support/seeded-random';

const CASES = Math.max(200, Number(process.env.FUZZ_CASES ?? 200));
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const SKIPPED = new Set(['DELETE /api/v1/authentication', 'GET /api/v1/events']);

const prng = (seed: number) => seededRandom(seed).next;

const HOSTILE: unknown[] = [
  -1, 0, 1, 2147483647, 2147483648, -2147483649, Number.MAX_SAFE_INTEGER + 2, 1e300, -0, 1.5, '1e309', 'NaN', 'Infinity', '-Infinity',
  '', ' ', 'a'.repeat(5000), '\u0000', 'x\u0000y', '💥', '\ud800', "' OR 1=1 --", '<script>alert(1)</script>', '../../etc/passwd',
  '%00', '%', '_', '\\', null, true, false, [], [1, 2], ['a'], {}, { $gt: '' }, { __proto__: { polluted: 1 } }, { constructor: { prototype: { polluted: 1 } } },
  '2024-13-45', '2024-01-31T11:00:00.000Z', '01/31/2024', '99/99/9999', '0x10', '１２３', 'true', 'null', '[]', '{}', 'r1-00000000-0000-0000-0000-000000000000.pdf',
  'admin@ohsu.example', 'not an email', 'Draft', 'Approved', 'Submitted', 'credentialing', 'certificate', 'Local', 'local', 'jwt',
];
const KEYS = [
  'requestId', 'id', 'status', 'email', 'password', 'confirmPassword', 'currentPassword', 'filename', 'storedName', 'lastName', 'firstName',
  'message', 'topic', 'discussionId', 'deletedAt', 'templateTitle', 'retryOf', 'question', 'answer', 'order', 'type', 'startDate', 'endDate',
  'policyNumber', 'limitClaim', 'subject', 'body', 'claimIds', 'dateFrom', 'dateTo', 'filterByType', 'strategy', 'accessToken', 'phone', 'active',
  'employeeId', 'addlRecipients', 'birthDate', 'requestType', 'certificateType', 'isAttachment', 'description', 'version', '__proto__',
  'constructor', '$limit', '$skip', '$sort', '$select', '$or', '$and', 'limit', 'searchFrom', 'searchTo', 'clinLastName', 'combination',
];
const QUERY_KEYS = [
  '$limit', '$skip', '$sort[id]', '$sort[updatedAt]', '$select[0]', 'id', 'requestId', '$or[0][id]', '$and[0][status]', 'status', 'lastName',
  '__proto__[polluted]', 'constructor[prototype][polluted]', '$where', 'id[$in][0]', 'id[$like]', 'id[$gte]', 'createdAt[$lte]', 'type',
  'email', 'searchFrom', 'searchTo', 'limit', 'combination', 'requestTypeLabel', 'clinLastName', 'a[b][c][d][e][f][g]',
];
const RAW_BODIES = ['{', '[]', 'null', '"text"', '{"a":', '{"requestId":1e999}', '{"__proto__":{"x":1}}', '\u0000', 'x'.repeat(2000)];

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];
/** URL-encodes; a lone surrogate becomes the bytes of an invalid UTF-8 sequence (%ED%A0%80), as a raw client could send. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
}
const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined');

function hostileBody(random: Random, base: unknown): unknown {
  const out: Record<string, unknown> = random() < 0.5 && base && typeof base === 'object' && !Array.isArray(base) ? { ...(base as object) } : {};
  const changes = 1 + Math.floor(random() * 3);
  const baseKeys = Object.keys(out);
  for (let i = 0; i < changes; i += 1) {
    const key = baseKeys.length && random() < 0.6 ? pick(random, baseKeys) : pick(random, KEYS);
    out[key] = pick(random, HOSTILE);
  }
  return random() < 0.1 ? pick(random, HOSTILE) : out;
}

/** The base call with its numeric path segments, query and body made hostile. */
function hostileCall(random: Random, base: RouteCall): RouteCall {
  const [pathPart, queryPart] = base.url.split('?');
  let path = pathPart;
  if (random() < 0.5) {
    // a path parameter: every segment after the resource name that the base filled in
    const segments = path.split('/');
    const positions = segments.map((s, i) => (i > 3 ? i : -1)).filter((i) => i > 0);
    if (positions.length) segments[pick(random, positions)] = encode(text(pick(random, HOSTILE)).slice(0, 300));
    path = segments.join('/');
  }
  let query = queryPart ?? '';
  if (random() < 0.6) {
    const pairs = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
      `${encode(pick(random, QUERY_KEYS))}=${encode(text(pick(random, HOSTILE)).slice(0, 300))}`);
    query = random() < 0.5 && query ? `${query}&${pairs.join('&')}` : pairs.join('&');
  }
  const url = query ? `${path}?${query}` : path;
  if (base.headers?.['content-type']?.startsWith('multipart/')) return { ...base, url, ...hostileMultipart(random) };
  if (base.method === 'GET' || base.method === 'DELETE') return { method: base.method, url };
  const roll = random();
  if (roll < 0.15) return { method: base.method, url, payload: pick(random, RAW_BODIES), headers: { 'content-type': 'application/json' } };
  if (roll < 0.2) return { method: base.method, url, payload: 'a=1&b=2', headers: { 'content-type': pick(random, ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) } };
  return { method: base.method, url, payload: hostileBody(random, base.payload) as never };
}

function hostileMultipart(random: Random): { payload: Buffer | string; headers: Record<string, string> } {
  const roll = random();
  if (roll < 0.2) return { payload: 'not multipart at all', headers: { 'content-type': 'multipart/form-data' } };
  if (roll < 0.35) return { payload: '--x\r\nContent-Disposition: form-data; name="requestId"\r\n\r\n1', headers: { 'content-type': 'multipart/form-data; boundary=x' } };
  const fields = { requestId: text(pick(random, HOSTILE)).slice(0, 200), limit: text(pick(random, HOSTILE)).slice(0, 50) };
  const file = random() < 0.7
    ? { name: text(pick(random, HOSTILE)).slice(0, 100), type: pick(random, ['application/pdf', 'text/csv', 'image/png', 'application/x-msdownload', '']), bytes: Buffer.from(text(pick(random, HOSTILE)).slice(0, 2000)) }
    : undefined;
  return multipart(fields, file);
}

let h: Harness;
let fx: Fixtures;
let fingerprint: () => Promise<string>;
let database: Awaited<ReturnType<typeof ownDatabase>>;
const sqlRun = (text: string) => h.orm.em.fork().getConnection().execute(text, [], 'run');

beforeAll(async () => {
  // Its own database: an accepted case may rename a template or move a policy year, which later files rely on.
  database = await ownDatabase('fuzz');
  // The answer timeout costs nothing in a passing run (no case may wait for it: each would be a 503); a short one made
  // a draft's deletion, which ends its workflow on the Temporal server, a 503 on a loaded machine.
  h = await startHarness({ worker: false, databaseUrl: database.url, env: { WORKFLOW_ANSWER_TIMEOUT_MS: '5000', API_KEY_CALLS_PER_MINUTE: '1000000' } });
  fx = await createFixtures(h);
  // The tables a user sees. Left out on purpose: the security log and the rate-limit counters (refusals are
  // recorded there by design), the used captcha challenges, the API keys (a key's last use is recorded by design,
  // whatever the call's answer).
  const tables = ['requests', 'documents', 'discussions', 'request_activity', 'users', 'admins', 'policies', 'faqs', 'email_templates',
    'people', 'claim_history', 'claims_data', 'request_exports', 'request_effects', 'email_confirmations', 'password_resets', 'uploads'];
  // A counter that every committed change to a row of those tables moves (an insert, a delete, an update that
  // changes a column), kept by row triggers: reading it after each case costs one row, where hashing every row of
  // the 17 tables cost most of the file's 375 s. A change that rolled back leaves it as it was, as it leaves the data.
  await sqlRun(`create table "fuzz_changes" ("n" bigint not null); insert into "fuzz_changes" values (0);
    create function "fuzz_count_change"() returns trigger language plpgsql as $$ begin update "fuzz_changes" set "n" = "n" + 1; return null; end $$;
    ${tables.map((t) => `create trigger "fuzz_write" after insert or delete on "${t}" for each row execute function "fuzz_count_change"();
    create trigger "fuzz_change" after update on "${t}" for each row when (old.* is distinct from new.*) execute function "fuzz_count_change"();`).join('\n')}`);
  fingerprint = async () => ((await h.orm.em.fork().getConnection().execute('select "n" from "fuzz_changes"', [], 'all')) as Array<{ n: string }>)[0].n;
});
afterAll(async () => {
  await h?.stop();
  await database?.drop();
});

const FUZZED = Object.keys(ROUTE_CALLS).filter((key) => !SKIPPED.has(key)).sort();
const random = prng(SEED);
const totals = { cases: 0, serverErrors: 0, changedByRefusal: 0, started: Date.now() };
afterAll(() => {
  console.log(`[fuzz] seed ${SEED}: ${totals.cases} cases over ${FUZZED.length} routes (${CASES} a route) in ${((Date.now() - totals.started) / 1000).toFixed(1)} s; `
    + `${totals.serverErrors} answered 5xx, ${totals.changedByRefusal} refusals changed data`);
});

describe(`fuzz: ${CASES} hostile calls a route, as an administrator, an external requester and its API key`, () => {
  it('the change counter moves on a changed row and not on an update that changes nothing', async () => {
    const start = Number(await fingerprint());
    await sqlRun('update "faqs" set "question" = "question"');
    expect(Number(await fingerprint())).toBe(start);
    await sqlRun(`update "faqs" set "order" = "order" + 1 where "id" = ${fx.faqId}; update "faqs" set "order" = "order" - 1 where "id" = ${fx.faqId}`);
    expect(Number(await fingerprint())).toBe(start + 2);
  });

  it.each(FUZZED)('%s answers below 500 and a refusal changes nothing', async (key) => {
    const serverErrors: string[] = [];
    const changedByRefusal: string[] = [];
    // An administrator's own admin row is not fuzzed: a case that changed its email would end the run's admin rights.
    const base = key === 'PATCH /api/v1/admins/{id}'
      ? { method: 'PATCH', url: `/api/v1/admins/${await throwaway.admin(h)}`, payload: {} }
      : await ROUTE_CALLS[key](h, fx);
    let before = await fingerprint();
    for (let n = 0; n < CASES; n += 1) {
      // Every fourth case comes from the requester's organisation's system, with its API key.
      const persona: Persona = n % 4 === 3 ? 'apiKey' : n % 2 === 0 ? 'admin' : 'confirmed';
      const call = hostileCall(random, base);
      const res = await h.app.inject({
        method: call.method as never, url: call.url,
        headers: { ...(call.headers ?? {}), authorization: `Bearer ${fx.sessions[persona]!.token}` },
        ...(call.payload !== undefined ? { payload: call.payload as never } : {}),
      });
      totals.cases += 1;
      const described = `as ${persona}: ${call.method} ${call.url.slice(0, 200)} ${text(call.payload).slice(0, 200)}`;
      if (res.statusCode >= 500) serverErrors.push(`${res.statusCode} ${described} → ${res.body.slice(0, 200)}`);
      const after = await fingerprint();
      if (res.statusCode >= 400 && after !== before) changedByRefusal.push(`${res.statusCode} ${described}`);
      before = after;
    }
    totals.serverErrors += serverErrors.length;
    totals.changedByRefusal += changedByRefusal.length;
    expect(serverErrors).toEqual([]);
    expect(changedByRefusal).toEqual([]);
  }, 120_000);
});
