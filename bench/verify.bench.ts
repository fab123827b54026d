/**
 * `npm run bench:verify [-- --letters 100000 --calls 2000 --concurrency 4]`: the public verification endpoint
 * (`GET /api/v1/verify/:code`) with 100,000 issued letters (target: p95 ≤ 20 ms), beside the bare figure of the same
 * SQL run from `pg` on the same database.
 *
 * The database `coi_bench_verify` (VERIFY_BENCH_DATABASE_URL) is migrated as the portal does it and filled once by
 * bulk SQL: one request per current certificate, every seventh with an older superseded one before it, every
 * twentieth revoked (the mix a year of re-issues and cancellations gives). The API runs as production starts it
 * (bench/api-process.ts; no Temporal needed for reads). Each call comes from an address of its own (X-Forwarded-For
 * with TRUST_PROXY=127.0.0.1), so the per-address limit counts as it does in production (one upsert per call)
 * without refusing the bench. Codes are drawn at random over the table; one call in ten asks for an unknown code.
 *
 * Prints: the API's p50/p95/p99 and req/s, sequential and at --concurrency; the bare `pg` round trip of the lookup
 * (and of the limit's upsert) with the same codes; EXPLAIN (ANALYZE, BUFFERS) of the lookup; the machine's
 * calibrate figure (../shared/calibrate.mjs, when present). Exits 1 when a call does not answer 200 or the sequential p95
 * misses the target (`--smoke`: only for a call).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import pg from 'pg';
import { prepareDatabase } from '../db/prepare-database';
import { codeLookup } from '../services/requests/verification';
import { formatVerificationCode, VERIFICATION_CODE_ALPHABET } from '../domain';
import { startApiProcess } from './api-process';
import { calibration, runBench, stopLater, targetsFailTheRun } from './lifecycle';

const argValue = (name: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : undefined; };
const LETTERS = Number(argValue('letters') ?? 100_000);
const CALLS = Number(argValue('calls') ?? 2000);
const CONCURRENCY = Number(argValue('concurrency') ?? 4);
const TARGET_P95_MS = 20;
const DATABASE_URL = process.env.VERIFY_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/coi_bench_verify';
const log = (line: string) => console.log(`[bench:verify] ${line}`);

/** A 13-symbol code of the alphabet from md5 bytes of `seed` (SQL): unique enough for a bench (65 bits). */
const CODE_SQL = (seed: string) => `(select string_agg(substr('${VERIFICATION_CODE_ALPHABET}', 1 + get_byte(decode(md5(${seed}), 'hex'), i) % 32, 1), '' order by i)
   from generate_series(0, 12) i)`;

const FACTS_SQL = (g: string) => `jsonb_build_object(
  'kind', 'certificate', 'kindLabel', 'Certificate of Insurance', 'subtypeLabel', 'Event',
  'certificateHolder', 'Holder ' || ${g}, 'insuredActivity', 'Event: Bench event ' || ${g} || '; Event dates: 04/02/2027 – 04/03/2027',
  'coveragePeriod', jsonb_build_object('from', '2027-04-02', 'to', '2027-04-03'), 'coverageLine', 'General and Professional Liability',
  'policies', jsonb_build_array(jsonb_build_object('policyNumber', 'SIP-2026-27', 'effective', '2026-07-01', 'expiration', '2027-06-30',
    'eachClaim', '1000000.00', 'annualAggregate', '3000000.00')),
  'dateIssued', '2026-11-20', 'timeZone', 'America/Los_Angeles')`;

/** Fills the letters once (reused when the count matches); answers how many there are. */
async function seed(client: pg.Client): Promise<number> {
  const have = Number((await client.query(`select count(*) as n from issued_letters where idempotency_key like 'bench:%'`)).rows[0].n);
  if (have >= LETTERS) { log(`${have} issued letters already there: reused`); return have; }
  const started = Date.now();
  const requests = Math.ceil(LETTERS / (1 + 1 / 7));
  const found = await client.query(`select id from users where email = 'bench-verify@ohsu.example'`);
  const userId = (found.rows[0] ?? (await client.query(`insert into users (email, first_name, last_name, affiliation, created_at, updated_at)
    values ('bench-verify@ohsu.example', 'Bench', 'Verify', 'external', now(), now()) returning id`)).rows[0]).id as number;
  await client.query('begin');
  await client.query(`delete from issued_letters where idempotency_key like 'bench:%'`);
  await client.query(`delete from requests where source = 'bench-verify'`);
  await client.query(`insert into requests (request_type, source, requester_id, employer_type, status, created_at, updated_at)
    select 'certificate', 'bench-verify', $1, 'OHSU', 'Approved', now(), now() from generate_series(1, $2)`, [userId, requests]);
  // Older, superseded certificates of every seventh request first (the current one supersedes them below).
  await client.query(`insert into issued_letters (request_id, letter_kind, verification_code, sha256, idempotency_key, issued_at, superseded_at, facts, created_at, updated_at)
    select r.id, 'certificate', ${CODE_SQL(`'old' || r.id`)}, sha256(('old' || r.id)::bytea), 'bench:old:' || r.id,
           now() - interval '200 days', now() - interval '100 days', ${FACTS_SQL('r.id')}, now(), now()
      from requests r where r.source = 'bench-verify' and r.id % 7 = 0`);
  await client.query(`insert into issued_letters (request_id, letter_kind, verification_code, sha256, idempotency_key, issued_at, revoked_at, revoke_reason, facts, created_at, updated_at)
    select r.id, 'certificate', ${CODE_SQL(`'cur' || r.id`)}, sha256(('cur' || r.id)::bytea), 'bench:cur:' || r.id,
           now() - interval '100 days', case when r.id % 20 = 0 then now() - interval '10 days' end,
           case when r.id % 20 = 0 then 'Coverage cancelled' end, ${FACTS_SQL('r.id')}, now(), now()
      from requests r where r.source = 'bench-verify'`);
  await client.query(`update issued_letters o set superseded_by_id = c.id
      from issued_letters c where o.idempotency_key = 'bench:old:' || o.request_id and c.idempotency_key = 'bench:cur:' || o.request_id`);
  await client.query('commit');
  await client.query('vacuum analyze issued_letters');
  const count = Number((await client.query(`select count(*) as n from issued_letters where idempotency_key like 'bench:%'`)).rows[0].n);
  log(`${count} issued letters (${requests} requests) inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return count;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (label: string, times: number[], wallMs?: number) => {
  const s = [...times].sort((a, b) => a - b);
  const rate = wallMs ? `, ${(times.length / (wallMs / 1000)).toFixed(0)} req/s` : '';
  log(`${label}: n=${s.length} p50 ${percentile(s, 50).toFixed(2)} ms, p95 ${percentile(s, 95).toFixed(2)} ms, p99 ${percentile(s, 99).toFixed(2)} ms${rate}`);
  return percentile(s, 95);
};

async function timedLoop(calls: string[], concurrency: number, run: (code: string, i: number) => Promise<void>) {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < calls.length) {
      const i = next++;
      const t = performance.now();
      await run(calls[i], i);
      times.push(performance.now() - t);
    }
  }));
  return { times, wallMs: performance.now() - started };
}

async function main(): Promise<number> {
  await prepareDatabase(DATABASE_URL, log, { devAccounts: false });
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  stopLater('close the database connection', () => client.end());
  await seed(client);
  const sample = (await client.query(`select verification_code from issued_letters where idempotency_key like 'bench:%' order by random() limit $1`, [CALLS]))
    .rows.map((r) => r.verification_code as string);
  // One call in ten asks for a code nobody issued (the no-enumeration path takes the same lookup).
  const codes = sample.map((code, i) => (i % 10 === 9 ? formatVerificationCode(code.split('').reverse().join('')) : formatVerificationCode(code)));
  const warmUp = Math.min(200, codes.length);

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-verify-bench-'));
  stopLater('remove the API\'s data folder', () => rm(dataDir, { recursive: true, force: true }));
  const api = await startApiProcess({
    ...process.env, DATABASE_URL, TEMPORAL_ADDRESS: '127.0.0.1:1', PGAPPNAME: 'verify-ours', TRUST_PROXY: '127.0.0.1', DATA_DIR: dataDir,
  }, log);
  stopLater('stop the API process', () => api.stop());
  let failures = 0;
  const call = async (code: string, i: number) => {
    const res = await fetch(`${api.url}/api/v1/verify/${code}`, { headers: { 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` } });
    if (res.status !== 200) failures += 1;
    await res.arrayBuffer();
  };
  await timedLoop(codes.slice(0, warmUp), 2, call); // warm-up (JIT, pool, caches)
  const sequential = await timedLoop(codes, 1, call);
  const p95 = summary('API GET /verify/:code, sequential', sequential.times, sequential.wallMs);
  // No enumeration by timing: issued and unknown codes take the same path (timedLoop keeps the calls' order when sequential).
  summary('  of which issued codes', sequential.times.filter((_t, i) => i % 10 !== 9));
  summary('  of which unknown codes', sequential.times.filter((_t, i) => i % 10 === 9));
  const parallel = await timedLoop(codes, CONCURRENCY, (code, i) => call(code, i + CALLS));
  summary(`API GET /verify/:code, ${CONCURRENCY} at once`, parallel.times, parallel.wallMs);
  if (failures) log(`FAILED: ${failures} calls did not answer 200`);

  // The same SQL, bare: the lookup with the same (normalized) codes, and the limit's upsert, from pg.
  const normalized = codes.map((c) => c.replace(/-/g, ''));
  const compiler = new Kysely({ dialect: {
    createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db), createQueryCompiler: () => new PostgresQueryCompiler(),
  } });
  const lookup = codeLookup('').compile(compiler).sql;
  await timedLoop(normalized.slice(0, warmUp), 1, async (code) => { await client.query(lookup, [code]); });
  const bare = await timedLoop(normalized, 1, async (code) => { await client.query(lookup, [code]); });
  summary('bare pg, the lookup (same SQL, same codes)', bare.times, bare.wallMs);
  const upsert = await timedLoop(normalized, 1, async (_code, i) => {
    await client.query(`insert into rate_limit_counters as c (key, hits, window_ends) values ($1, 1, now() + interval '1 minute')
      on conflict (key) do update set hits = c.hits + 1 returning hits`, [`bench|10.9.${i >> 8}.${i & 255}`]);
  });
  summary('bare pg, the per-address limit upsert', upsert.times, upsert.wallMs);
  await client.query(`delete from rate_limit_counters where key like 'bench|%' or key like 'verify|%'`);
  const plan = await client.query(`explain (analyze, buffers) ${lookup}`, [normalized[0]]);
  log(`EXPLAIN ANALYZE of the lookup:\n${plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}`);

  const calibrated = calibration();
  if (calibrated) log(`calibrate: ${calibrated}`);
  log(`target p95 ≤ ${TARGET_P95_MS} ms: ${p95 <= TARGET_P95_MS ? 'met' : 'MISSED'}`);
  return failures || (p95 > TARGET_P95_MS && targetsFailTheRun) ? 1 : 0;
}

runBench('bench:verify', main);
