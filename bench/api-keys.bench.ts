/**
 * `npx tsx bench/api-keys.bench.ts [-- --keys 20 --calls 300 --limit 120 --smoke]`: do organisations' systems calling
 * with API keys slow other users down? The API runs as production starts it (bench/api-process.ts, its own database
 * `coi_bench_api_keys`); a person's dashboard list (`GET /api/v1/requests`, the first page) is timed `--calls` times
 * one after another, first alone, then while `--keys` keys of as many accounts each call as fast as they can (one
 * connection each) for as long as the person's calls last. Prints the person's p50/p95/p99 both ways, what the keys
 * got (200s within their limit, 429s past it) and the most 200s any key had in one minute's window (≤ --limit),
 * then the machine's calibration. The target: the person's p95 with the keys at most twice the p95 alone, and no key
 * past its limit.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { prepareDatabase } from '../db/prepare-database';
import { generateApiKey, hashApiKey } from '../services/accounts/api-keys';
import { startApiProcess } from './api-process';
import { calibration, runBench, stopLater, targetsFailTheRun } from './lifecycle';

const argValue = (name: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : undefined; };
const KEYS = Number(argValue('keys') ?? 20);
const CALLS = Number(argValue('calls') ?? 300);
const HONOR_RETRY_AFTER = process.argv.includes('--honor-retry-after');
const LIMIT = Number(argValue('limit') ?? 120);
const DATABASE_URL = process.env.API_KEYS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/coi_bench_api_keys';
const log = (line: string) => console.log(`[bench:api-keys] ${line}`);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (label: string, times: number[]) => {
  const s = [...times].sort((a, b) => a - b);
  log(`${label}: n=${s.length} p50 ${percentile(s, 50).toFixed(2)} ms, p95 ${percentile(s, 95).toFixed(2)} ms, p99 ${percentile(s, 99).toFixed(2)} ms`);
  return percentile(s, 95);
};

/** An external, confirmed account (with `requests` drafts of its own), answered as its id and session version. */
async function account(client: pg.Client, email: string, requests: number): Promise<{ id: number; sessionVersion: number }> {
  const found = await client.query(`select id, session_version from users where email = $1`, [email]);
  const user = found.rows[0] ?? (await client.query(`insert into users (email, first_name, last_name, affiliation, is_external, email_confirmed_at, created_at, updated_at)
    values ($1, 'Bench', 'Org', 'external', true, now(), now(), now()) returning id, session_version`, [email])).rows[0];
  const have = Number((await client.query(`select count(*) as n from requests where requester_id = $1`, [user.id])).rows[0].n);
  for (let i = have; i < requests; i += 1) {
    await client.query(`insert into requests (request_type, status, source, requester_id, requester_email, employer_type, last_name, first_name, created_at, updated_at)
      values ('credentialing', 'Draft', 'bench-api-keys', $1, $2, 'External', 'Bench' || $3::text, 'Avery', now(), now())`, [user.id, email, i]);
  }
  return { id: user.id, sessionVersion: user.session_version };
}

async function main(): Promise<number> {
  await prepareDatabase(DATABASE_URL, log, { devAccounts: false });
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  stopLater('close the database connection', () => client.end());
  const person = await account(client, 'bench-person@clinic.example', 40);
  const keys: string[] = [];
  await client.query(`delete from api_keys where name = 'bench'`);
  for (let k = 0; k < KEYS; k += 1) {
    const org = await account(client, `bench-org-${k}@hospital.example`, 5);
    const { key, prefix } = generateApiKey();
    await client.query(`insert into api_keys (user_id, name, prefix, secret_hash, scopes, created_by) values ($1, 'bench', $2, $3, $4, 'bench')`,
      [org.id, prefix, hashApiKey(key), ['requests:read']]);
    keys.push(key);
  }
  await client.query(`delete from rate_limit_counters where key like 'api-key%'`);

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-api-keys-bench-'));
  stopLater('remove the API\'s data folder', () => rm(dataDir, { recursive: true, force: true }));
  const api = await startApiProcess({
    ...process.env, DATABASE_URL, TEMPORAL_ADDRESS: '127.0.0.1:1', PGAPPNAME: 'api-keys-bench', DATA_DIR: dataDir, API_KEY_CALLS_PER_MINUTE: String(LIMIT),
  }, log);
  stopLater('stop the API process', () => api.stop());
  const token = api.token(person);
  const dashboard = `${api.url}/api/v1/requests?$limit=25&$sort[updatedAt]=-1`;
  let failures = 0;

  const startedAt: number[] = [];
  const personCalls = async (n: number): Promise<number[]> => {
    const times: number[] = [];
    startedAt.length = 0;
    for (let i = 0; i < n; i += 1) {
      const t = performance.now();
      startedAt.push(t);
      const res = await fetch(dashboard, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      times.push(performance.now() - t);
      if (res.status !== 200) failures += 1;
    }
    return times;
  };

  await personCalls(Math.min(100, CALLS)); // warm-up (JIT, pool)
  const alone = summary('a person\'s dashboard list, alone', await personCalls(CALLS));

  // Each key: one connection, as fast as it is answered, until the person's calls are done. With --honor-retry-after
  // a key waits out a 429's Retry-After, as a well-made client (docs/examples/organisation-client.mjs) does; without,
  // it keeps calling (a runaway script).
  let done = false;
  const perKey = keys.map(() => ({ ok: 0, limited: 0, other: 0, okByMinute: new Map<number, number>(), firstLimitedAt: Infinity }));
  const hammer = keys.map(async (key, k) => {
    while (!done) {
      const res = await fetch(`${api.url}/api/v1/requests?$limit=5`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      const tally = perKey[k];
      if (res.status === 200) {
        tally.ok += 1;
        const minute = Math.floor(Date.now() / 60_000);
        tally.okByMinute.set(minute, (tally.okByMinute.get(minute) ?? 0) + 1);
      } else if (res.status === 429) {
        tally.limited += 1;
        tally.firstLimitedAt = Math.min(tally.firstLimitedAt, performance.now());
        if (HONOR_RETRY_AFTER) await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 1000));
      }
      else tally.other += 1;
    }
  });
  const started = performance.now();
  const withKeysTimes = await personCalls(CALLS);
  const withKeys = summary(`the same, while ${KEYS} keys call as fast as they can${HONOR_RETRY_AFTER ? " (waiting out each 429's Retry-After)" : " (ignoring 429s)"}`, withKeysTimes);
  // While some keys still spend their window's calls (lists, as the person's) and once every key is past its limit (429s).
  const allLimited = Math.max(...perKey.map((t) => t.firstLimitedAt));
  const spending = withKeysTimes.filter((_t, i) => startedAt[i] < allLimited);
  const refused = withKeysTimes.filter((_t, i) => startedAt[i] >= allLimited);
  log(`  every key past its limit after ${((allLimited - started) / 1000).toFixed(1)} s`);
  if (spending.length) summary('  of which while keys spent their allowed calls', spending);
  if (refused.length) summary('  of which once every key was answered 429', refused);
  const seconds = (performance.now() - started) / 1000;
  done = true;
  await Promise.all(hammer);

  const ok = perKey.reduce((n, t) => n + t.ok, 0);
  const limited = perKey.reduce((n, t) => n + t.limited, 0);
  const other = perKey.reduce((n, t) => n + t.other, 0);
  // Windows are fixed per key from its first call: a clock minute can hold the end of one and the start of the next.
  const mostInAMinute = Math.max(...perKey.flatMap((t) => [...t.okByMinute.values()]));
  log(`keys over ${seconds.toFixed(1)} s: ${ok} answered 200, ${limited} answered 429, ${other} other; `
    + `${((ok + limited) / seconds).toFixed(0)} key calls/s; most 200s of one key in a clock minute ${mostInAMinute} (limit ${LIMIT} a window)`);
  const { rows: [counted] } = await client.query(`select max(hits) as most from rate_limit_counters where key like 'api-key:%'`);
  log(`largest per-key count in the current windows: ${counted.most} (refused calls included)`);
  if (other) failures += other;

  const calibrated = calibration();
  if (calibrated) log(`calibrate: ${calibrated}`);
  const slowdown = withKeys / alone;
  const met = slowdown <= 2 && mostInAMinute <= 2 * LIMIT;
  log(`person's p95 with keys / alone: ${slowdown.toFixed(2)}× (target ≤ 2×): ${met ? 'met' : 'MISSED'}`);
  if (failures) log(`FAILED: ${failures} calls answered neither 200 nor 429`);
  return failures || (!met && targetsFailTheRun) ? 1 : 0;
}

runBench('bench:api-keys', main);
