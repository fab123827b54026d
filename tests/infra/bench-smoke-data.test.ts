/**
 * The benches that read a filled database run small, so that none rots unseen (bench/README.md "Smoke runs"): each
 * is run as a developer runs it (`npm run …`), at a size of seconds, and must print its figures and exit 0 (the
 * targets are printed, not judged: `--smoke`). One database of 300 requests, filled by `npm run seed:requests` as the
 * 100,000 are, serves the lists, reports, dashboard and API-heap benches; the verification, desk, CS-STARS upload and
 * instant-simulator benches fill small ones of their own. After every run nothing it started is left running; and a
 * bench that fails half-way stops what it started: the lists bench, its API killed under it, exits 1 and leaves no
 * process behind.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { dropDatabase } from '../../db/database';
import { CSV_HEADER } from '../../bench/generate-cs-stars';
import { isPortOpen } from '../../devtools/temporal/dev-server';
import { benchEnvironment, leftRunningAfter, removeResults, runBenchToEnd, startBench } from '../support/bench-runs';
import { eventually } from '../support/eventually';

const databaseOf = (name: string) => {
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/coi_smoke_${process.pid}_${randomBytes(2).toString('hex')}_${name}`;
  return url.toString();
};
const databases = {
  lists: databaseOf('lists'), verify: databaseOf('verify'), desk: databaseOf('desk'), upload: databaseOf('upload'), signIn: databaseOf('sign_in'),
  instant: databaseOf('instant'),
};
const env = benchEnvironment({
  SIGN_IN_CHECK_BENCH_DATABASE_URL: databases.signIn,
  LISTS_BENCH_DATABASE_URL: databases.lists, REPORTS_BENCH_DATABASE_URL: databases.lists, VERIFY_BENCH_DATABASE_URL: databases.verify,
  DESK_BENCH_DATABASE_URL: databases.desk, CS_STARS_UPLOAD_BENCH_DATABASE_URL: databases.upload, INSTANT_BENCH_DATABASE_URL: databases.instant,
});
const REQUESTS = '300';
const LISTS_SMALL = ['--requests', REQUESTS, '--calls', '20', '--connections', '2'];

afterAll(async () => {
  for (const url of Object.values(databases)) await dropDatabase(url).catch(() => undefined);
  removeResults(env);
});

/** Runs the bench to its end; it must exit 0 and leave nothing running. Answers what it printed. */
async function smoke(script: string, args: string[], runEnv = env): Promise<string> {
  const run = await runBenchToEnd(script, args, runEnv);
  expect(run.code, run.output.slice(-4000)).toBe(0);
  expect(await leftRunningAfter(run.mark)).toEqual([]);
  return run.output;
}

describe('the benches on a filled database, small', () => {
  it('seed:requests fills the lists database as it fills the 100,000', async () => {
    expect(await smoke('seed:requests', ['--requests', REQUESTS])).toMatch(/\[seed:requests\] 300 requests (inserted|already there)/);
  });

  it('bench:lists runs every list on the API and on the bare server with the same statements, and prints the figures', async () => {
    const output = await smoke('bench:lists', LISTS_SMALL);
    for (const scenario of ['admin-first-page', 'requester-own-list', 'admin-page-as-dashboard', 'requester-page-as-dashboard', 'search-name', 'search-dates', 'admin-dashboard']) {
      expect(output).toMatch(new RegExp(`--- ${scenario} \\(20 calls[^\\n]*\\n  ours +\\d+ req/s  p50 [\\d.]+ ms  p95 [\\d.]+ ms.* errors 0\\n  bare +\\d+ req/s .* errors 0`));
    }
    expect(output).toMatch(/API RSS peak under the lists load: \d+ MiB/);
    expect(output).not.toMatch(/FAILED/);
  });

  it('bench:reports times every report on it', async () => {
    const output = await smoke('bench:reports', ['--requests', REQUESTS, '--runs', '2']);
    expect(output.match(/whole page +p50 +[\d.]+ ms +p95/g)).toHaveLength(3);
    expect(output).toMatch(/xlsx download +p50 +[\d.]+ ms/);
  });

  it('bench:instant-simulator simulates its rules over a database of its own (it adds what rules read)', async () => {
    const output = await smoke('bench:instant-simulator', ['--requests', REQUESTS, '--runs', '2']);
    expect(output.match(/considered \d+, would issue \d+/g)).toHaveLength(4);
    expect(output).toMatch(/all 8 runs: p50 [\d.]+ ms +p95 [\d.]+ ms/);
  });

  it('bench:browser loads both dashboards in Chromium from the UI the run built', async () => {
    const output = await smoke('bench:browser', ['--loads', '1', '--no-build']);
    expect(output).toMatch(/initial JS: [\d.]+ KiB gzip/);
    expect(output.match(/ready \(rows shown \+ input answered\): p50 \d+ ms, p95 \d+ ms/g)).toHaveLength(2);
  });

  it('bench:api-heap says what a ready API holds', async () => {
    expect(await smoke('bench:api-heap', [], { ...env, DATABASE_URL: databases.lists })).toMatch(/live heap of a ready API +[\d.]+ MiB/);
  });

  it('bench:verify checks codes through the API and bare', async () => {
    const output = await smoke('bench:verify', ['--letters', '200', '--calls', '20', '--concurrency', '2']);
    expect(output).toMatch(/API GET \/verify\/:code, sequential: n=20 p50 [\d.]+ ms, p95/);
    expect(output).toMatch(/bare pg, the lookup \(same SQL, same codes\): n=20/);
  });

  it('bench:desk imports, exports and searches', async () => {
    const output = await smoke('bench:desk', ['--rows', '200', '--searches', '5', '--repeat', '1']);
    expect(output).toMatch(/CS-STARS 200 rows, median of 1: import [\d.]+ ms/);
    expect(output).toMatch(/export 200 requests \(done/);
    expect(output).toMatch(/search over \d+ requests, 5 name searches: p50/);
  });

  it('bench:cs-stars-upload uploads a file and measures the API', async () => {
    const output = await smoke('bench:cs-stars-upload', ['--rows', '200']);
    expect(output).toMatch(/answer 201 in [\d.]+ s: \{"rows":200,"inserted":200/);
    expect(output).toMatch(/API RSS before \d+ MiB, peak sampled \d+ MiB/);
  });

  it('bench:sign-in-check solves the first level of the sign-in check in Chromium and signs in', async () => {
    const output = await smoke('bench:sign-in-check', ['--runs', '1', '--levels', '1']);
    expect(output).toMatch(/level 1 run 1: solved in the browser in [\d.]+ s, signed in/);
    expect(output).toMatch(/^1 \| 0-24 \| \d+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \(\d+\)$/m);
  });

  it('generate:cs-stars writes the export it is asked for', async () => {
    const lines = (await smoke('generate:cs-stars', ['5'])).trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(CSV_HEADER);
  });
});

describe('a bench that fails half-way', () => {
  it('stops what it started: the lists bench, its API killed under it, exits 1 and leaves no server or process', async () => {
    const run = startBench('bench:lists', LISTS_SMALL, env);
    const started = await eventually(async () => /ours http:\/\/127\.0\.0\.1:(\d+) \(pid (\d+)\), bare http:\/\/127\.0\.0\.1:(\d+) \(pid (\d+)\)/.exec(run.output()), 180_000);
    const [, apiPort, apiPid, barePort] = started.map(Number);
    process.kill(apiPid, 'SIGKILL');
    expect(await run.ended).toBe(1);
    expect(run.output()).toMatch(/\[bench:lists\] FAILED: /);
    expect(await leftRunningAfter(run.mark)).toEqual([]);
    for (const port of [apiPort, barePort]) expect(await isPortOpen('127.0.0.1', port, 1000), `port ${port}`).toBe(false);
  });
});
