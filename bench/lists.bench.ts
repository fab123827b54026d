/**
 * `npm run bench:lists [-- --requests 100000 --seconds 10 --warmup 2 --connections 10 --only admin-first-page,search-name --profile]`:
 * the list targets (throughput and p95 per list, and within a ratio of a bare server) at a year's volume
 * (bench/seed-requests.ts fills `coi_bench_lists` once). `--calls N` runs N calls per run instead of --seconds (and
 * a fifth of them to warm up): the suite's smoke run (tests/infra/bench-smoke-data.test.ts) at `--requests 300 --calls 20`.
 *
 * Two servers, each in its own child process (same resources): (a) the portal's API as production starts it (the
 * compiled server with the production node flags, bench/api-process.ts; reads need no Temporal, so its client is a
 * lazy connection that never connects) and
 * (b) a bare Fastify + `pg` app with no auth and no ORM whose handler runs the SAME SQL the API ran for that call
 * (the statements and the values bound to them, captured from `pg` in the API process and printed), sequential or
 * parallel as the API runs it.
 * autocannon drives each from this process, one scenario at a time: a warm-up, then --seconds at --connections.
 * The requester scenario rotates over requester tokens (hospital accounts with thousands of requests and ordinary
 * ones); the bare server gets the SQL of the same requester for each call.
 *
 * Prints per scenario: req/s, p50/p95/p99 (p95 from autocannon's 'response' events), bytes per response, CPU-ms per
 * request of the server process and of its PostgreSQL backends, ours/bare ratios, target met; EXPLAIN (ANALYZE,
 * BUFFERS) of each SQL; the API's RSS peak (≤ 250 MiB) and where it was at its peak (V8's young and old generations,
 * outside the heap: bench/memory/peak-sampler.ts). The targets: every scenario within 1.25× of the
 * bare server's throughput and p95. Writes bench/results/lists-<timestamp>.json. Exits 1 when a call failed or a
 * target is missed (`--smoke`: only when a call failed).
 * BENCH_API_NODE_FLAGS replaces the API's production node flags (`none`: Node's defaults) to measure others.
 * `--profile` starts the API with `--cpu-prof` (the profile lands in bench/results/profiles/).
 */
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { RESULTS_DIR, runBench, stopLater, targetsFailTheRun } from './lifecycle';
import { rssOf } from './process-profile';
import { startApiProcess, type ApiProcess } from './api-process';
import { describePeak, type MemoryPeak } from './memory/peak-sampler';
import { BENCH_ADMIN_EMAIL, LISTS_DATABASE_URL, seedListsDatabase } from './seed-requests';
import { DASHBOARD_FIELDS } from '../domain';

const self = fileURLToPath(import.meta.url);
const argValue = (name: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : undefined; };
const REQUESTS = Number(argValue('requests') ?? 100_000);
const SECONDS = Number(argValue('seconds') ?? 10);
const WARMUP_SECONDS = Number(argValue('warmup') ?? 2);
/** Calls per run instead of a duration (0: --seconds): a small run of every scenario that still checks every answer. */
const CALLS = Number(argValue('calls') ?? 0);
const CONNECTIONS = Number(argValue('connections') ?? 10);
const ONLY = argValue('only');
const log = (line: string) => console.log(`[bench:lists] ${line}`);

type Message = { id: number; type: string; [key: string]: unknown };

// ------------------------------------------------------------------ child: bare Fastify + pg

/** A statement as the API sent it: its text and the values bound to its `$n` parameters (bench/memory/api-probe.ts). */
interface Statement { text: string; values: unknown[] }
/** How a scenario's statements run: the first `sequential` one after another, the rest together (as the API does). */
interface BareScenario { variants: Statement[][]; sequential: number }

async function serveBare() {
  const { default: Fastify } = await import('fastify');
  const pool = new pg.Pool({ connectionString: LISTS_DATABASE_URL, max: 10 });
  const scenarios = new Map<string, BareScenario>();
  const app = Fastify();
  app.get<{ Params: { scenario: string } }>('/bare/:scenario', async (request) => {
    const scenario = scenarios.get(request.params.scenario)!;
    const variant = scenario.variants[Number(request.headers['x-variant'] ?? 0) % scenario.variants.length];
    const results: unknown[] = [];
    for (const { text, values } of variant.slice(0, scenario.sequential)) results.push((await pool.query(text, values)).rows);
    results.push(...(await Promise.all(variant.slice(scenario.sequential).map(async ({ text, values }) => (await pool.query(text, values)).rows))));
    return results;
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', (message: Message) => {
    if (message.type === 'scenario') {
      scenarios.set(message.name as string, message.scenario as BareScenario);
      process.send!({ id: message.id });
    } else if (message.type === 'stop') {
      void app.close().then(() => pool.end()).then(() => process.exit(0));
    }
  });
  // The bench that started it is gone (failed, killed): nobody will send it work or a stop.
  process.on('disconnect', () => process.exit(0));
  process.send!({ id: 0, url });
}

// ------------------------------------------------------------------ the driver

class Server {
  private next = 1;
  private waiting = new Map<number, (m: Message) => void>();
  /** how to fail each question still waiting: a server that dies before answering fails the bench instead of hanging it */
  private failing = new Map<number, (error: Error) => void>();
  constructor(readonly name: string, readonly child: ChildProcess, readonly url: string) {
    child.on('message', (m: Message) => { this.waiting.get(m.id)?.(m); this.waiting.delete(m.id); this.failing.delete(m.id); });
    child.on('exit', (code, signal) => {
      for (const fail of this.failing.values()) fail(new Error(`the ${name} server exited (${signal ?? code}) before answering`));
      this.failing.clear();
      this.waiting.clear();
    });
  }
  static async start(mode: 'bare', execArgv: string[] = []): Promise<Server> {
    // PGAPPNAME names the server's PostgreSQL sessions, so their CPU can be told apart (pg_stat_activity).
    const child = fork(self, ['--serve', mode], {
      execArgv: [...process.execArgv, ...execArgv], stdio: 'inherit', env: { ...process.env, PGAPPNAME: `lists-${mode}` },
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (m: Message) => resolve(m.url as string));
      child.once('exit', (code) => reject(new Error(`${mode} server exited (${code})`)));
    });
    return new Server(mode, child, url);
  }
  ask(type: string, body: Record<string, unknown> = {}): Promise<Message> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) { reject(new Error(`the ${this.name} server has exited`)); return; }
      this.waiting.set(id, resolve);
      this.failing.set(id, reject);
      this.child.send({ id, type, ...body });
    });
  }
  async stop() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    if (this.child.connected) this.child.send({ id: 0, type: 'stop' });
    else this.child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
    if (!stopped) this.child.kill('SIGKILL');
  }
}

/** CPU-ms a process has used so far (utime + stime of /proc/<pid>/stat). */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks at 100 Hz
  } catch { return 0; }
}

async function backendCpuMs(db: pg.Client, application: string): Promise<number> {
  const pids = (await db.query(`select pid from pg_stat_activity where application_name = $1`, [application])).rows.map((r) => r.pid as number);
  return pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0);
}

interface Scenario {
  name: string; path: string; who: 'admin' | 'requesters';
  target: { reqPerSec?: number; p95Ms?: number };
  /** statements the API runs one after another before the rest run together */
  sequential: (queries: Statement[]) => number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface Run { reqPerSec: number; p50: number; p95: number; p99: number; bytesPerResponse: number; errors: number; serverCpuMsPerReq: number; dbCpuMsPerReq: number; requests: number; peakRssBytes: number }

/** Target: the API's resident memory under the lists load. */
const API_RSS_LIMIT_BYTES = 250 * 1024 * 1024;
/** Target: every scenario within 1.25× of the bare server's throughput and p95. */
const BARE_RATIO_LIMIT = 1.25;


/** How long a run lasts: seconds, or a number of calls. */
type RunSize = { seconds: number } | { calls: number };
const WARM_UP: RunSize = CALLS ? { calls: Math.max(1, Math.ceil(CALLS / 5)) } : { seconds: WARMUP_SECONDS };
const TIMED: RunSize = CALLS ? { calls: CALLS } : { seconds: SECONDS };

async function load(server: { name: string; pid: number }, db: pg.Client, url: string, headersFor: (i: number) => Record<string, string>, size: RunSize): Promise<Run> {
  let i = 0;
  const latencies: number[] = [];
  const application = `lists-${server.name}`;
  const [cpu0, db0] = [cpuMsOf(server.pid), await backendCpuMs(db, application)];
  let peakRssBytes = rssOf(server.pid);
  const sampler = setInterval(() => { peakRssBytes = Math.max(peakRssBytes, rssOf(server.pid)); }, 100);
  const instance = autocannon({
    url, connections: CONNECTIONS, ...('calls' in size ? { amount: size.calls } : { duration: size.seconds }),
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...headersFor(i++) } }) }],
  });
  (instance as unknown as { on: (event: string, listener: (...args: never[]) => void) => void }).on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => { latencies.push(responseTime); });
  const result = await instance;
  clearInterval(sampler);
  const [cpu1, db1] = [cpuMsOf(server.pid), await backendCpuMs(db, application)];
  latencies.sort((a, b) => a - b);
  const total = result.requests.total || 1;
  return {
    reqPerSec: result.requests.average, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99),
    bytesPerResponse: Math.round(result.throughput.total / total), errors: result.non2xx + result.errors + result.timeouts,
    serverCpuMsPerReq: (cpu1 - cpu0) / total, dbCpuMsPerReq: (db1 - db0) / total, requests: total, peakRssBytes,
  };
}

async function main(): Promise<number> {
  await seedListsDatabase(LISTS_DATABASE_URL, REQUESTS);
  const db = new pg.Client({ connectionString: LISTS_DATABASE_URL });
  await db.connect();
  stopLater('close the database connection', () => db.end());
  const admin = (await db.query(`select id, session_version from users where email = $1`, [BENCH_ADMIN_EMAIL])).rows[0];
  // Requesters: the five hospital accounts and 27 others spread over the skew, each with their own list.
  const requesters = (await db.query(`
    with ranked as (select requester_id, count(*) as n, row_number() over (order by count(*) desc, requester_id) as rank from requests group by 1)
    select u.id, u.session_version, r.n from ranked r join users u on u.id = r.requester_id where r.rank <= 5 or r.rank % 60 = 0 order by r.rank`)).rows;
  const profile = process.argv.includes('--profile');
  const profileDir = path.join(RESULTS_DIR, 'profiles');
  if (profile) mkdirSync(profileDir, { recursive: true });
  // LISTS_API_NODE_FLAGS: V8 flags for the API process only (e.g. its heap bound), to measure their effect.
  // The API as production starts it (bench/api-process.ts); reads need no Temporal, so its lazy client never connects.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-lists-bench-'));
  stopLater('remove the API\'s data folder', () => rm(dataDir, { recursive: true, force: true }));
  const ours: ApiProcess & { name: string } = Object.assign(await startApiProcess({
    ...process.env, DATABASE_URL: LISTS_DATABASE_URL, TEMPORAL_ADDRESS: '127.0.0.1:1', PGAPPNAME: 'lists-ours', DATA_DIR: dataDir,
  }, log, profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), { name: 'ours' });
  stopLater('stop the API process', () => ours.stop());
  const bare = await Server.start('bare');
  stopLater('stop the bare server', () => bare.stop());
  const bareTarget = { name: bare.name, pid: bare.child.pid! };
  log(`ours ${ours.url} (pid ${ours.pid}), bare ${bare.url} (pid ${bare.child.pid}); ${requesters.length} requesters rotate`);
  const adminToken = ours.token({ id: admin.id, sessionVersion: admin.session_version });
  const requesterTokens = requesters.map((r) => ours.token({ id: r.id, sessionVersion: r.session_version }));

  const lastMonth = new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);
  const listSequential = (queries: Statement[]) => queries.length; // auth, rows, then (if needed) the total: one after another
  const dashboardSequential = (queries: Statement[]) => queries.findIndex((q) => !/from "(users|admins)"/.test(q.text)); // auth first, then all at once
  const dashboardSelect = DASHBOARD_FIELDS.map((f, i) => `$select[${i}]=${f}`).join('&');
  const scenarios: Scenario[] = [
    { name: 'admin-first-page', path: '/api/v1/requests?$limit=15&$sort[updatedAt]=-1', who: 'admin', target: { reqPerSec: 1000 }, sequential: listSequential },
    { name: 'requester-own-list', path: '/api/v1/requests?$limit=15&$sort[updatedAt]=-1', who: 'requesters', target: { reqPerSec: 3000 }, sequential: listSequential },
    // The same two pages as the dashboards ask for them ($select of the fields their tables show, domain DASHBOARD_FIELDS):
    // what a user's screen costs, printed beside the targets' whole-record pages.
    { name: 'admin-page-as-dashboard', path: `/api/v1/requests?$limit=15&$sort[updatedAt]=-1&${dashboardSelect}`, who: 'admin', target: { reqPerSec: 1000 }, sequential: listSequential },
    { name: 'requester-page-as-dashboard', path: `/api/v1/requests?$limit=15&$sort[updatedAt]=-1&${dashboardSelect}`, who: 'requesters', target: { reqPerSec: 3000 }, sequential: listSequential },
    { name: 'search-name', path: '/api/v1/search-requests?clinLastName=feather', who: 'admin', target: { p95Ms: 50 }, sequential: listSequential },
    { name: 'search-dates', path: `/api/v1/search-requests?searchFrom=${lastMonth}&searchTo=${today}`, who: 'admin', target: { p95Ms: 50 }, sequential: listSequential },
    { name: 'admin-dashboard', path: '/api/v1/admin-dashboard', who: 'admin', target: { p95Ms: 50 }, sequential: dashboardSequential },
  ].filter((s) => !ONLY || ONLY.split(',').includes(s.name)) as Scenario[];

  const report: Record<string, unknown>[] = [];
  let missed = 0;
  let failedCalls = 0;
  let peakApiRss = 0;
  const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
  const heldByApi = async (when: string) => {
    const { memory } = await ours.ask<{ memory: NodeJS.MemoryUsage }>('memory');
    log(`API ${when}, after a full collection: heap used ${mib(memory.heapUsed)} of ${mib(memory.heapTotal)}, external ${mib(memory.external)}, `
      + `array buffers ${mib(memory.arrayBuffers)}, RSS ${mib(memory.rss)}`);
    return memory;
  };
  const heldAtStart = await heldByApi('at start');
  for (const scenario of scenarios) {
    const tokens = scenario.who === 'admin' ? [adminToken] : requesterTokens;
    // The SQL of one call per token, as the API ran it: the bare server runs the same statements with the same values.
    const variants: Statement[][] = [];
    const call = async (token: string) => {
      const res = await fetch(`${ours.url}${scenario.path}`, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(`${scenario.name}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    await call(tokens[0]); // the first call of a process may check its connection first
    for (const token of tokens) {
      await ours.ask('mark');
      await call(token);
      variants.push((await ours.ask<{ queries: Statement[] }>('take')).queries);
    }
    const sequential = scenario.sequential(variants[0]);
    await bare.ask('scenario', { name: scenario.name, scenario: { variants, sequential } });
    console.log(`\n=== ${scenario.name}: GET ${scenario.path} (${scenario.who}) — SQL per call (${variants[0].length} statements${sequential < variants[0].length ? `, the last ${variants[0].length - sequential} together` : ''}):`);
    const shown = (q: Statement) => `${q.text.replace(/\s+/g, ' ')}${q.values.length ? `  -- ${JSON.stringify(q.values)}` : ''}`;
    for (const q of variants[0]) console.log(`  ${shown(q)}`);
    const plans: Record<string, string> = {};
    for (const q of variants[0]) { // the requesters' first is the busiest hospital account
      if (!/^\s*select/i.test(q.text)) continue;
      const plan = (await db.query(`explain (analyze, buffers) ${q.text}`, q.values)).rows.map((r) => r['QUERY PLAN']).join('\n');
      plans[shown(q)] = plan;
      console.log(`  EXPLAIN ${shown(q).slice(0, 100)}…\n${plan.split('\n').map((l: string) => `    ${l}`).join('\n')}`);
    }
    const oursUrl = `${ours.url}${scenario.path}`;
    const bareUrl = `${bare.url}/bare/${scenario.name}`;
    const oursHeaders = (i: number) => ({ authorization: `Bearer ${tokens[i % tokens.length]}` });
    const bareHeaders = (i: number) => ({ 'x-variant': String(i % tokens.length) });
    await load(ours, db, oursUrl, oursHeaders, WARM_UP);
    await load(bareTarget, db, bareUrl, bareHeaders, WARM_UP);
    const loadBefore = os.loadavg()[0];
    await ours.ask('peak'); // the peak of the timed run alone, below
    const oursRun = await load(ours, db, oursUrl, oursHeaders, TIMED);
    const oursPeak = (await ours.ask<{ peak: MemoryPeak }>('peak')).peak;
    const bareRun = await load(bareTarget, db, bareUrl, bareHeaders, TIMED);
    const loadAfter = os.loadavg()[0];
    const throughputRatio = bareRun.reqPerSec / oursRun.reqPerSec;
    const p95Ratio = oursRun.p95 / Math.max(bareRun.p95, 1);
    // Judged against the bare server; the older absolute targets are printed beside, for the record.
    const met = oursRun.errors === 0 && throughputRatio <= BARE_RATIO_LIMIT && p95Ratio <= BARE_RATIO_LIMIT;
    const metAbsolute = (scenario.target.reqPerSec === undefined || oursRun.reqPerSec >= scenario.target.reqPerSec)
      && (scenario.target.p95Ms === undefined || oursRun.p95 <= scenario.target.p95Ms);
    if (!met) missed += 1;
    failedCalls += oursRun.errors + bareRun.errors;
    peakApiRss = Math.max(peakApiRss, oursRun.peakRssBytes);
    await heldByApi(`after ${scenario.name}`);
    const row = (name: string, r: Run) => `  ${name.padEnd(5)} ${r.reqPerSec.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  `
      + `${r.bytesPerResponse} B/resp  CPU ${r.serverCpuMsPerReq.toFixed(2)} ms/req (server) + ${r.dbCpuMsPerReq.toFixed(2)} ms/req (PostgreSQL)  `
      + `RSS peak ${(r.peakRssBytes / 1048576).toFixed(0)} MiB  errors ${r.errors}`;
    console.log(`--- ${scenario.name} (${'calls' in TIMED ? `${TIMED.calls} calls` : `${TIMED.seconds} s`}, ${CONNECTIONS} connections, load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)})`);
    console.log(row('ours', oursRun));
    console.log(row('bare', bareRun));
    console.log(`  API memory: ${describePeak(oursPeak)}`);
    const absolute = [scenario.target.reqPerSec ? `≥ ${scenario.target.reqPerSec} req/s` : '', scenario.target.p95Ms ? `p95 ≤ ${scenario.target.p95Ms} ms` : ''].filter(Boolean).join(', ');
    console.log(`  bare/ours throughput ${throughputRatio.toFixed(2)}×, ours/bare p95 ${p95Ratio.toFixed(2)}×; target (both ≤ ${BARE_RATIO_LIMIT}×): ${met ? 'MET' : 'MISSED'}`
      + `; absolute target (${absolute}): ${metAbsolute ? 'met' : 'missed'}`);
    report.push({ scenario: scenario.name, path: scenario.path, who: scenario.who, target: scenario.target, ours: oursRun, bare: bareRun,
      apiMemoryPeak: oursPeak, throughputRatio, p95Ratio, met, metAbsolute, loadAverage: [loadBefore, loadAfter], sql: variants[0], plans });
  }
  const heldAtEnd = await heldByApi('at the end');
  // The kernel's high-water mark covers every moment of the API's life, between two samples too.
  peakApiRss = Math.max(peakApiRss, ours.hwmBytes());
  const rssMet = peakApiRss <= API_RSS_LIMIT_BYTES;
  if (!rssMet) missed += 1;
  console.log(`\nAPI RSS peak under the lists load: ${(peakApiRss / 1048576).toFixed(0)} MiB (target ≤ 250 MiB): ${rssMet ? 'MET' : 'MISSED'}`);
  const results = RESULTS_DIR;
  mkdirSync(results, { recursive: true });
  const file = path.join(results, `lists-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({
    requests: REQUESTS, seconds: SECONDS, calls: CALLS, connections: CONNECTIONS, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, scenarios: report,
    apiPeakRssBytes: peakApiRss, apiHeldAtStart: heldAtStart, apiHeldAtEnd: heldAtEnd,
  }, null, 2));
  log(`wrote ${path.relative(process.cwd(), file)}; ${missed ? `${missed} target(s) MISSED` : 'every target met'}`
    + `${failedCalls ? `; ${failedCalls} call(s) FAILED (an error or a status other than 2xx)` : ''}`);
  return failedCalls || (missed && targetsFailTheRun) ? 1 : 0;
}

if (argValue('serve') === 'bare') serveBare().catch((error) => { console.error(error); process.exit(1); });
else runBench('bench:lists', main);
