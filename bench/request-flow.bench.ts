/**
 * `npm run bench [-- --requests 200 --concurrency 8 --warmup 5]`: the request flow under load, on real parts (the API
 * over HTTP and the Temporal worker, each in a process of its own as production runs them: bench/api-process.ts,
 * bench/worker-process.ts; both in this one with `--processes 1`, the API in this one with `--profile`), with a headless in-memory Temporal dev server, PostgreSQL
 * (a throw-away database coi_bench_<pid>), the SMTP sink (a process of its own, bench/mail-sink-process.ts, so its CPU is not the API's) and Chromium for the letters.
 *
 *   setup (untimed)  N credentialing drafts, each with one small PDF document (create, upload, register)
 *   warm-up          `--warmup` requests submitted and approved end to end, not counted (workflow bundle, Chromium)
 *   phase 1          submit all N (PATCH status 'Submitted') with bounded concurrency; wait for N confirmations
 *   phase 2          approve all N as admin (PATCH status 'Approved', verified) ; wait for N approval emails
 *   instant          `--instant` Event certificates a rule issues, one at a time: submit → certificate email with its
 *                    PDF, the submit call against the Temporal floor at concurrency 1, the rule's decision
 *                    (bench/instant-scenario.ts)
 *
 * Reports p50/p95/p99/max/mean of the submit call, the approve call, submit-to-confirmation and
 * approve-to-email-received; wall times, throughput, RSS (the API process's peak, ≤ 250 MiB, and where its memory
 * was then; the worker's peak beside it). Exits 1 unless exactly one confirmation and exactly one
 * approval email with one PDF letter arrived for every request. Results go to bench/results/<timestamp>.json, the machine's
 * calibrate figure (../shared/calibrate.mjs) beside them.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';
import type { AppConfig } from '../config/app-config';
import { dropDatabase, dropOrphanedDatabases } from '../db/database';
import { prepareDatabase } from '../db/prepare-database';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER, DEV_REQUESTER } from '../db/seed-data';
import { startPortalInProcess } from '../devtools/portal-in-process';
import { startMailSinkProcess, type MailSinkProcess, type MailSummary } from './mail-sink-process';
import { ensureTemporalServer, freePort, type TemporalServerHandle } from '../devtools/temporal/dev-server';
import { startWorkerProcess, type WorkerProcess } from './worker-process';
import { startApiProcess, type ApiProcess } from './api-process';
import { API_PROCESS_ENV } from '../config/api-process';
import { describePeak, type MemoryPeak } from './memory/peak-sampler';
import { loadConfig } from '../config/app-config';
import { createTemporalClient } from '../temporal/connection';
import { reportWorkerMemory, sampleWorkerMemory, WORKER_MEMORY_PRELOAD } from './memory/worker-memory';
import { REQUEST_WORKFLOW_TYPE, requestWorkflowId } from '../workflows/request.messages';
import { floorFigures, printFloor, printTargets, targetRows, type TargetRow } from './floor/floor-report';
import { measureFloor, type Floor } from './floor/temporal-floor';
import { calibration, RESULTS_DIR, runBench, stopLater } from './lifecycle';
import { printInstant, runInstantScenario, type InstantScenarioResult } from './instant-scenario';
import { countQueries, descendants, historyShares, MainThreadProfiler, rssOf, threadCpu, threadCpuDelta } from './process-profile';

// ---------------------------------------------------------------------------------------------------------------
// Options

const USAGE = 'usage: npm run bench -- [--requests N (200)] [--concurrency C (8)] [--warmup W (5)] [--profile 0|1|2|3 (0)] [--floor 0|1 (1)] [--think MS (0)] [--processes 1|2 (2)] [--memory 0|1 (0)] [--instant N (30)]';

function parseArgs(argv: string[]) {
  /**
   * `profile`: 1 records the main thread's CPU profile per phase (bench/results/*.cpuprofile) and prints where it
   * went; 2 also runs the workflow code on the main thread so the profile includes it; 3 keeps the worker in its own
   * process and profiles the API alone (this process's main thread).
   * `floor`: 1 measures the Temporal floor in the same run, after the warm-up, and compares.
   * `think`: each simulated user pauses this long between two clicks (0: back to back, the issue's measure).
   * `processes`: 2 runs the worker as its own process, as production does (the API stays in this one); 1 runs both
   *   here, which `--profile` needs to see the worker's code.
   * `memory`: 1 measures the worker process's memory before and after the submit phase, by holder
   *   (bench/memory/worker-memory.ts); `--requests 1000` fills its workflow cache. Needs `--processes 2`.
   * `instant`: after phase 2, this many Event certificates a rule issues at submit, one at a time (0: none).
   */
  const options = { requests: 200, concurrency: 8, warmup: 5, profile: 0, floor: 1, think: 0, processes: 2, memory: 0, instant: 30 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--smoke') continue; // bench/lifecycle.ts reads it
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    const key = flag.replace(/^--/, '');
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (!(key in options) || !flag.startsWith('--')) {
      console.error(`unknown argument "${arg}"\n${USAGE}`);
      process.exit(2);
    }
    const value = Number(inline ?? argv[++i]);
    const min = ['warmup', 'profile', 'floor', 'think', 'memory', 'instant'].includes(key) ? 0 : 1;
    if (!Number.isInteger(value) || value < min) {
      console.error(`--${key} needs an integer >= ${min}\n${USAGE}`);
      process.exit(2);
    }
    (options as Record<string, number>)[key] = value;
  }
  if (options.processes !== 1 && options.processes !== 2) {
    console.error(`--processes is 1 or 2\n${USAGE}`);
    process.exit(2);
  }
  // the profile sees this process only: the worker comes into it, unless the API alone is asked for (3)
  if (options.profile && options.profile !== 3 && options.processes === 2) options.processes = 1;
  if (options.memory && options.processes !== 2) {
    console.error(`--memory 1 measures the worker's own process: it needs --processes 2 and no --profile\n${USAGE}`);
    process.exit(2);
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
const queryCounter = options.profile ? countQueries() : null;
if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error(`[bench] Node ${process.version}: run it with  npm run bench  (Node 24 from node_modules/.bin)`);
  process.exit(2);
}
/** A stalled phase (no expected email for this long) fails the run instead of hanging. */
const STALL_TIMEOUT_MS = 60_000;
/** After the last expected email, wait this long so a late duplicate would still be counted. */
const SETTLE_MS = 2_000;
/** An API process's resident memory in production, at its peak (docs/PROCESSES.md "Memory"). */
const API_RSS_LIMIT_BYTES = 250 * 1024 * 1024;

const log = (line: string) => console.log(`[bench] ${line}`);
const warn = (line: string) => console.error(`[bench] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

// ---------------------------------------------------------------------------------------------------------------
// Statistics and resource sampling

interface Summary { n: number; min: number; p50: number; p95: number; p99: number; max: number; mean: number }

/** Nearest-rank percentiles (p of n sorted samples = the ceil(p/100·n)-th). */
function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { n: 0, min: NaN, p50: NaN, p95: NaN, p99: NaN, max: NaN, mean: NaN };
  const at = (p: number) => sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))];
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    n, min: round(sorted[0]), p50: round(at(50)), p95: round(at(95)), p99: round(at(99)), max: round(sorted[n - 1]),
    mean: round(sorted.reduce((a, b) => a + b, 0) / n),
  };
}

/** Sum of VmRSS of every descendant of `rootPid` (Temporal dev server, Chromium and its helpers). */
function descendantsRss(rootPid: number): number {
  return descendants(rootPid).reduce((total, pid) => total + rssOf(pid), 0);
}

const TICK_MS = 10; // USER_HZ = 100 on Linux

/**
 * CPU milliseconds used so far by the whole machine and by this process tree (this process, the Temporal dev
 * server, Chromium; utime+stime+cutime+cstime, so reaped Chromium renderers still count). The difference over a
 * phase is what other programs on the machine took: a benchmark sharing 2 cores with a test run is not comparable.
 */
let temporalPid: number | null = null;
/** The worker's own process (`--processes 2`): its CPU apart from its Chromium's. */
let workerPid: number | null = null;
/** The SMTP sink's process (bench/mail-sink-process.ts): the mail server's CPU, counted apart from ours. */
let sinkPid: number | null = null;
/** The API's own process (`--processes 2` without `--profile`), as production runs it: bench/api-process.ts. */
let apiPid: number | null = null;
let apiProbe: ApiProcess | null = null;
/** The dev server's "Slow gRPC call" warnings (e.g. an UpdateWorkflowExecution waiting for its activity). */
let slowGrpcCalls = 0;

function cpuSnapshot(): { machineMs: number; treeMs: number; temporalMs: number; workerMs: number; sinkMs: number; apiMs: number } | null {
  try {
    const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields;
    const machineMs = (user + nice + system + irq + softirq + (steal ?? 0)) * TICK_MS;
    let treeMs = 0;
    let temporalMs = 0;
    let workerMs = 0;
    let sinkMs = 0;
    let apiMs = 0;
    for (const pid of [process.pid, ...descendants(process.pid)]) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
        const ms = (f[11] + f[12] + f[13] + f[14]) * TICK_MS; // utime stime cutime cstime
        treeMs += ms;
        if (pid === temporalPid) temporalMs += ms;
        if (pid === workerPid) workerMs += (f[11] + f[12]) * TICK_MS; // its own threads; Chromium is counted apart
        if (pid === sinkPid) sinkMs += ms;
        if (pid === apiPid) apiMs += ms;
      } catch { /* gone */ }
    }
    return { machineMs, treeMs, temporalMs, workerMs, sinkMs, apiMs };
  } catch {
    return null;
  }
}

class ResourceSampler {
  peakRss = 0;
  peakChildrenRss = 0;
  peakWorkerRss = 0;
  peakApiRss = 0;
  workerRss: (() => number) | null = null;
  apiRss: (() => number) | null = null;
  private timers: NodeJS.Timeout[] = [];
  start() {
    const sampleSelf = () => { this.peakRss = Math.max(this.peakRss, process.memoryUsage.rss()); };
    const sampleChildren = () => {
      this.peakChildrenRss = Math.max(this.peakChildrenRss, descendantsRss(process.pid) || 0);
      if (this.workerRss) this.peakWorkerRss = Math.max(this.peakWorkerRss, this.workerRss());
    };
    const sampleApi = () => { if (this.apiRss) this.peakApiRss = Math.max(this.peakApiRss, this.apiRss()); };
    sampleSelf();
    sampleChildren();
    sampleApi();
    this.timers.push(setInterval(sampleSelf, 100).unref(), setInterval(sampleChildren, 1000).unref(), setInterval(sampleApi, 100).unref());
  }
  reset() {
    this.peakRss = process.memoryUsage.rss();
    this.peakChildrenRss = descendantsRss(process.pid) || 0;
    this.peakWorkerRss = this.workerRss?.() ?? 0;
    this.peakApiRss = this.apiRss?.() ?? 0;
  }
  stop() { for (const t of this.timers) clearInterval(t); }
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP client (real sockets: the HTTP layer is part of what is measured)

/** A tiny valid PDF, as a requester's signed release would be (same bytes as the tests use). */
const SAMPLE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

class Api {
  constructor(readonly baseUrl: string) {}

  async call(token: string | null, method: string, url: string, body?: unknown, expect = [200, 201]): Promise<any> {
    const res = await fetch(`${this.baseUrl}/api/v1${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    const text = await res.text();
    if (!expect.includes(res.status)) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : null;
  }

  async login(email: string, password: string): Promise<string> {
    const body = await this.call(null, 'POST', '/authentication', { strategy: 'local', email, password });
    return body.accessToken as string;
  }

  /** A complete credentialing draft with one supporting PDF, ready to submit (as tests/support/api-helpers.ts). */
  async credentialingDraft(token: string, i: number): Promise<number> {
    const created = await this.call(token, 'POST', '/requests', {
      requestType: 'credentialing', lastName: 'Bench', firstName: `Avery${i}`, birthDate: '1980-04-12T11:00:00.000Z',
      dateFrom: '2020-01-01T11:00:00.000Z', dateTo: '2024-12-31T11:00:00.000Z',
      providerType: 'Current Employee/Fellow/Resident', reason: 'Future employment', releaseAuthorized: true,
    }, [201]);
    const id = created.id as number;
    const form = new FormData();
    form.append('requestId', String(id));
    form.append('file', new Blob([SAMPLE_PDF], { type: 'application/pdf' }), 'release.pdf');
    const uploaded = await this.call(token, 'POST', '/upload', form, [201]);
    await this.call(token, 'POST', '/documents', {
      requestId: id, filename: 'Signed release.pdf', description: 'Signed release', storedName: uploaded.storedName,
    }, [201]);
    return id;
  }
}

/** Runs `task` over `items` with at most `limit` in flight; rejects on the first failure (after the rest settle). */
async function pool<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: unknown = null;
  const runner = async () => {
    while (failure === null && next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index], index);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  if (failure !== null) throw failure;
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// Mail tracking: every message the sink receives, timestamped by a subscriber the moment it is delivered

type Kind = 'confirmation' | 'approval';
interface Arrival { at: number; message: MailSummary }

const SUBJECT_PATTERNS: Array<[Kind, RegExp]> = [
  ['confirmation', /^Request (\d+) received:/], // Submission Confirmation
  ['approval', /^Request (\d+) approved:/], //      Credentialing Request Approved
];

class MailTracker {
  readonly arrivals: Record<Kind, Map<number, Arrival[]>> = { confirmation: new Map(), approval: new Map() };
  readonly other: MailSummary[] = [];
  private waiters = new Set<() => void>();
  private unsubscribe: () => void;

  constructor(sink: MailSinkProcess) {
    this.unsubscribe = sink.subscribe((message) => {
      const at = performance.now();
      const match = SUBJECT_PATTERNS.map(([kind, re]) => [kind, re.exec(message.subject)] as const).find(([, m]) => m);
      if (!match) this.other.push(message);
      else {
        const [kind, m] = match;
        const number = Number(m![1]);
        const list = this.arrivals[kind].get(number) ?? [];
        list.push({ at, message });
        this.arrivals[kind].set(number, list);
      }
      for (const wake of this.waiters) wake();
    });
  }

  first(kind: Kind, number: number): Arrival | undefined {
    return this.arrivals[kind].get(number)?.[0];
  }

  /** Resolves once every number has its `kind` email; rejects when none arrives for STALL_TIMEOUT_MS. */
  async waitAll(kind: Kind, numbers: number[], label: string): Promise<void> {
    const missing = () => numbers.filter((n) => !this.arrivals[kind].has(n));
    let lastCount = -1;
    let lastProgress = performance.now();
    for (;;) {
      const left = missing();
      if (left.length === 0) return;
      if (left.length !== lastCount) { lastCount = left.length; lastProgress = performance.now(); }
      if (performance.now() - lastProgress > STALL_TIMEOUT_MS) {
        throw new Error(`${label}: ${left.length} of ${numbers.length} emails still missing after ${STALL_TIMEOUT_MS / 1000} s ` +
          `without progress (e.g. requests ${left.slice(0, 10).join(', ')})`);
      }
      await new Promise<void>((resolve) => {
        const wake = () => { this.waiters.delete(wake); clearTimeout(timer); resolve(); };
        const timer = setTimeout(wake, 1000);
        this.waiters.add(wake);
      });
    }
  }

  close() { this.unsubscribe(); }
}

// ---------------------------------------------------------------------------------------------------------------
// The portal in this process

interface Portal {
  config: AppConfig;
  sink: MailSinkProcess;
  api: Api;
  temporalServer: TemporalServerHandle;
  temporal: Client;
  /** the worker's own process (`--processes 2`), or null when it runs in this one */
  worker: WorkerProcess | null;
  /** the API's own process (`--processes 2` without `--profile`), or null when it runs in this one */
  apiProcess: ApiProcess | null;
}

async function startPortal(): Promise<Portal> {
  const serverUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  serverUrl.pathname = '/postgres';
  serverUrl.search = '';
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/coi_bench_${process.pid}`;
  const databaseUrl = dbUrl.toString();

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-bench-'));
  stopLater('remove data dir', () => rm(dataDir, { recursive: true, force: true }));

  for (const name of await dropOrphanedDatabases(serverUrl.toString(), 'coi_bench_')) log(`dropped stale database ${name}`);
  await dropDatabase(databaseUrl).catch(() => {}); // a leftover of a recycled pid
  stopLater('drop database', () => dropDatabase(databaseUrl));

  const address = `127.0.0.1:${await freePort()}`;
  // allSettled: when one part fails, the others are still registered for cleanup before we throw
  const [prepared, temporalStarted, sinkStarted] = await Promise.allSettled([
    prepareDatabase(databaseUrl),
    ensureTemporalServer({
      address,
      log: (line) => {
        if (/^\[temporal\] (CLI|Server:|UI:|Metrics:)/.test(line)) return;
        // one WARN per update that waits more than a few seconds: counted and summed up in the report instead
        if (/msg="Slow gRPC call"/.test(line)) { slowGrpcCalls += 1; return; }
        log(line);
      },
    }),
    startMailSinkProcess(),
  ]);
  if (temporalStarted.status === 'fulfilled') {
    const server = temporalStarted.value;
    stopLater('stop Temporal dev server', () => server.stop());
  }
  if (sinkStarted.status === 'fulfilled') stopLater('close SMTP sink', () => sinkStarted.value.close());
  for (const settled of [prepared, temporalStarted, sinkStarted]) if (settled.status === 'rejected') throw settled.reason;
  const temporalServer = (temporalStarted as PromiseFulfilledResult<TemporalServerHandle>).value;
  const sink = (sinkStarted as PromiseFulfilledResult<MailSinkProcess>).value;
  sinkPid = sink.pid;
  if (!temporalServer.started) throw new Error(`something already listens on ${address}`);
  temporalPid = temporalServer.process?.pid ?? null;
  log(`database ${dbUrl.pathname.slice(1)}, Temporal ${address} (in memory, headless), SMTP sink ${sink.url}`);

  const portalEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: address,
    TEMPORAL_TASK_QUEUE: `bench-${randomBytes(4).toString('hex')}`,
    SMTP_URL: sink.url,
    DATA_DIR: dataDir,
    PORT: '0',
    // One requester files every draft of the run: the per-user quotas would stop it at 25.
    OPEN_DRAFTS_QUOTA: '100000', UPLOAD_MB_PER_DAY_QUOTA: '100000',
    ...API_PROCESS_ENV, // the image's environment, for the worker too
  };
  let worker: WorkerProcess | null = null;
  const bundleStarted = performance.now();
  if (options.processes === 2) {
    // minutes: on a 2-core machine shared with test runs, bundling the workflows alone can take two
    worker = await startWorkerProcess(portalEnv, warn, 600_000, options.memory ? WORKER_MEMORY_PRELOAD : null);
    workerPid = worker.pid;
    stopLater('stop worker process', () => worker!.stop());
    log(`worker process ${worker.pid} polling (workflow bundle, Chromium) after ${seconds(performance.now() - bundleStarted)}`);
  }
  if (options.processes === 2 && !options.profile) {
    // The API as production starts it (compiled, with the production node flags): its memory is its own.
    const apiProcess = await startApiProcess(portalEnv, log);
    apiPid = apiProcess.pid;
    apiProbe = apiProcess;
    stopLater('stop API process', () => apiProcess.stop());
    const config = loadConfig(portalEnv);
    const temporal = await createTemporalClient(config.temporalAddress, config.temporalNamespace, { lazy: true });
    stopLater('close the bench\'s Temporal client', () => temporal.connection.close());
    log(`API process ${apiProcess.pid} listening on ${apiProcess.url}`);
    return { config, sink, api: new Api(apiProcess.url), temporalServer, temporal, worker, apiProcess };
  }
  // The API (and with `--processes 1` the worker) in this process, as the tests start it; mail goes to the sink process.
  const portal = await startPortalInProcess({
    env: portalEnv, worker: options.processes !== 2, listen: true, smtpSink: false, workflowsOnMainThread: options.profile >= 2,
  });
  portal.workerRun.catch((error) => warn(`worker stopped with an error: ${(error as Error).message}`));
  stopLater('stop the portal in this process (API, worker, Chromium, ORM)', () => portal.stop().catch(() => {}));
  if (portal.worker) log(`worker created in this process (workflow bundle) in ${seconds(performance.now() - bundleStarted)}`);
  const { config, temporal } = portal;
  const baseUrl = portal.baseUrl!;
  log(`API listening on ${baseUrl}`);

  return { config, sink, api: new Api(baseUrl), temporalServer, temporal, worker, apiProcess: null };
}

// ---------------------------------------------------------------------------------------------------------------
// The benchmark

interface Phase {
  samples: { call: number[]; toEmail: number[] };
  wallMs: number;
  /** from the first call to the last answer (the emails may still be on their way) */
  callsWallMs: number;
  /**
   * CPU of the bench process (the API; the worker too with `--processes 1`), of the worker's own process, of the
   * other children (Temporal dev server, Chromium), of other programs.
   */
  cpuMs: { bench: number; worker: number | null; temporal: number | null; chromium: number | null; mailSink: number | null; others: number | null };
  peakRss: number;
  peakChildrenRss: number;
  peakWorkerRss: number;
  /** the API's own process: its peak RSS (sampled every 100 ms) and where its memory was then (its probe) */
  peakApiRss: number;
  apiPeak: MemoryPeak | null;
  /** CPU-ms of the bench process per thread group (main thread = API + activities; workflow threads; SDK core) */
  threads: Record<string, number>;
  /** the same for the worker's own process (main thread = activities and the SDK's JavaScript), when it has one */
  workerThreads: Record<string, number> | null;
  /** with --profile: the main thread's time per category (self) and per caller in our code (owner), ms */
  profile: { self: Array<[string, number]>; owner: Array<[string, number]> } | null;
  /** with --profile: PostgreSQL round trips of the phase by caller (API, activity type) */
  queries: Record<string, number> | null;
}

async function runPhase(
  label: string, ids: number[], tracker: MailTracker, kind: Kind, sampler: ResourceSampler,
  send: (id: number) => Promise<number>,
): Promise<Phase & { numbers: number[] }> {
  sampler.reset();
  await apiProbe?.ask('peak'); // from now on
  const profiler = options.profile && !label.startsWith('warm-up') ? new MainThreadProfiler() : null;
  await profiler?.start();
  queryCounter?.take();
  const threadsBefore = threadCpu(apiPid ?? process.pid);
  const workerThreadsBefore = workerPid ? threadCpu(workerPid) : null;
  const cpuBefore = process.cpuUsage();
  const snapBefore = cpuSnapshot();
  const started = performance.now();
  const sentAt = new Map<number, number>();
  const call: number[] = [];
  let done = 0;
  const numbers = await pool(ids, options.concurrency, async (id) => {
    const t0 = performance.now();
    const number = await send(id);
    call.push(performance.now() - t0);
    if (options.think) await sleep(options.think);
    sentAt.set(number, t0);
    if (++done % 50 === 0) log(`${label}: ${done}/${ids.length} calls answered`);
    return number;
  });
  const callsWallMs = performance.now() - started;
  log(`${label}: all ${ids.length} calls answered in ${seconds(callsWallMs)}; waiting for the emails…`);
  await tracker.waitAll(kind, numbers, label);
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const snapAfter = cpuSnapshot();
  const threads = threadCpuDelta(threadsBefore, threadCpu(apiPid ?? process.pid));
  const workerThreads = workerThreadsBefore && workerPid ? threadCpuDelta(workerThreadsBefore, threadCpu(workerPid)) : null;
  const queries = queryCounter?.take() ?? null;
  const profile = profiler
    ? await profiler.stop(path.join(RESULTS_DIR, `${label.replace(/\W+/g, '-')}-${process.pid}.cpuprofile`))
    : null;
  // With the API in its own process, this process is only the HTTP client and the mail tracker: not the API's CPU.
  const clientCpuMs = (cpu.user + cpu.system) / 1000;
  const apiCpuMs = apiPid && snapBefore && snapAfter ? snapAfter.apiMs - snapBefore.apiMs : 0;
  const benchCpuMs = apiPid ? apiCpuMs : clientCpuMs;
  const apiPeak = apiProbe ? (await apiProbe.ask<{ peak: MemoryPeak }>('peak')).peak : null;
  const treeMs = snapBefore && snapAfter ? snapAfter.treeMs - snapBefore.treeMs : null;
  const toEmail = numbers.map((n) => tracker.first(kind, n)!.at - sentAt.get(n)!);
  log(`${label}: all ${ids.length} emails received in ${seconds(wallMs)}`);
  return {
    samples: { call, toEmail }, wallMs, callsWallMs,
    cpuMs: {
      bench: Math.round(benchCpuMs),
      worker: treeMs === null || !workerPid ? null : Math.round(snapAfter!.workerMs - snapBefore!.workerMs),
      temporal: treeMs === null ? null : Math.round(snapAfter!.temporalMs - snapBefore!.temporalMs),
      chromium: treeMs === null ? null : Math.max(0, Math.round(treeMs - clientCpuMs - apiCpuMs - (snapAfter!.temporalMs - snapBefore!.temporalMs)
        - (snapAfter!.workerMs - snapBefore!.workerMs) - (snapAfter!.sinkMs - snapBefore!.sinkMs))),
      mailSink: treeMs === null ? null : Math.round(snapAfter!.sinkMs - snapBefore!.sinkMs),
      others: treeMs === null ? null : Math.max(0, Math.round(snapAfter!.machineMs - snapBefore!.machineMs - treeMs)),
    },
    peakRss: sampler.peakRss, peakChildrenRss: sampler.peakChildrenRss, peakWorkerRss: sampler.peakWorkerRss,
    peakApiRss: Math.max(sampler.peakApiRss, apiPeak?.rssBytes ?? 0), apiPeak, numbers, threads, workerThreads, profile, queries,
  };
}

/** Exactly one confirmation and one approval email (with exactly one PDF letter for that request) per number. */
function verifyMail(tracker: MailTracker, numbers: number[], warmupNumbers: number[], instantNumbers: number[], sink: MailSinkProcess) {
  const problems: string[] = [];
  const counts = { confirmations: 0, approvals: 0, letters: 0, other: tracker.other.length, totalReceived: sink.count() };
  const measured = new Set(numbers);
  if (measured.size !== numbers.length) problems.push('the same request number was answered twice');
  const instant = new Set(instantNumbers);
  for (const n of [...warmupNumbers, ...numbers, ...instantNumbers]) {
    const counted = measured.has(n);
    const tag = counted ? `request ${n}` : instant.has(n) ? `instant request ${n}` : `warm-up request ${n}`;
    const confirmations = tracker.arrivals.confirmation.get(n) ?? [];
    const approvals = tracker.arrivals.approval.get(n) ?? [];
    if (counted) {
      counts.confirmations += confirmations.length;
      counts.approvals += approvals.length;
    }
    if (confirmations.length !== 1) problems.push(`${tag}: ${confirmations.length} confirmation emails (expected 1)`);
    if (approvals.length !== 1) problems.push(`${tag}: ${approvals.length} approval emails (expected 1)`);
    for (const { message } of approvals) {
      const pdfs = message.attachments.filter((a) => a.contentType === 'application/pdf'
        && Buffer.from(a.content.subarray(0, 5)).toString('latin1') === '%PDF-');
      if (counted) counts.letters += pdfs.length;
      if (message.attachments.length !== 1 || pdfs.length !== 1) {
        problems.push(`${tag}: approval email has ${message.attachments.length} attachments, ${pdfs.length} PDF (expected 1 PDF)`);
      } else if (!pdfs[0].filename.includes(String(n))) {
        problems.push(`${tag}: the attached letter "${pdfs[0].filename}" is not this request's`);
      }
    }
  }
  for (const message of tracker.other) problems.push(`unexpected email "${message.subject}"`);
  const known = new Set([...warmupNumbers, ...numbers, ...instantNumbers]);
  for (const kind of ['confirmation', 'approval'] as const) {
    for (const n of tracker.arrivals[kind].keys()) if (!known.has(n)) problems.push(`${kind} email for unknown request ${n}`);
  }
  const expectedTotal = 2 * known.size;
  if (counts.totalReceived !== expectedTotal) problems.push(`the sink received ${counts.totalReceived} emails in all (expected ${expectedTotal})`);
  return { counts, problems };
}

function describeShare(share: ReturnType<typeof historyShares>['submit']): string {
  return `${share.events} events, ${share.workflowTasks} workflow tasks, ${share.activityTasks} activity tasks, ` +
    `${share.localActivities} local activities, ${share.searchAttributeUpserts} search attribute upserts, ${share.timers} timers`;
}

function table(rows: Array<[string, Summary]>): string {
  const head = ['', 'n', 'p50', 'p95', 'p99', 'max', 'mean'];
  const width = Math.max(...rows.map(([name]) => name.length));
  const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-').padStart(9);
  const lines = [
    `${head[0].padEnd(width)}  ${head[1].padStart(5)}${head.slice(2).map((h) => h.padStart(9)).join('')}   (ms)`,
    ...rows.map(([name, s]) => `${name.padEnd(width)}  ${String(s.n).padStart(5)}${[s.p50, s.p95, s.p99, s.max, s.mean].map(fmt).join('')}`),
  ];
  return lines.join('\n');
}

async function main(): Promise<number> {
  const wallStarted = performance.now();
  const startedAt = new Date();
  const cpus = os.cpus();
  const loadAtStart = os.loadavg().map((x) => Math.round(x * 100) / 100);
  log(`${options.requests} requests, concurrency ${options.concurrency}, warm-up ${options.warmup} (not counted); ` +
    `Node ${process.version}, ${cpus.length} cores (${cpus[0]?.model.trim() ?? '?'}), ${mib(os.totalmem())} RAM`);

  const before = cpuSnapshot();
  await sleep(1000);
  const after = cpuSnapshot();
  const busyAtStart = before && after ? (after.machineMs - before.machineMs - (after.treeMs - before.treeMs)) / (1000 * cpus.length) : 0;
  if (busyAtStart > 0.2) {
    warn(`other programs keep ${(busyAtStart * 100).toFixed(0)}% of the CPU busy right now: the figures will suffer`);
  }

  // Quiet the worker's INFO lines (one per workflow/activity); warnings and errors still show.
  // No shutdownSignals: this script handles SIGINT/SIGTERM itself and stops the worker in its cleanup.
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });

  const sampler = new ResourceSampler();
  stopLater('stop sampler', () => sampler.stop());

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const setupStarted = performance.now();
  const portal = await startPortal();
  if (portal.worker) sampler.workerRss = () => portal.worker!.rssBytes();
  if (portal.apiProcess) sampler.apiRss = () => portal.apiProcess!.rssBytes();
  sampler.start();
  const tracker = new MailTracker(portal.sink);
  stopLater('stop mail tracker', () => tracker.close());
  const { api } = portal;
  const requester = await api.login(DEV_REQUESTER.email, DEV_REQUESTER.password);
  const admin = await api.login(DEV_ADMIN.email, DEV_ADMIN.password);

  const total = options.warmup + options.requests;
  const ids = await pool(Array.from({ length: total }, (_, i) => i), options.concurrency, (i) => api.credentialingDraft(requester, i));
  const warmupIds = ids.slice(0, options.warmup);
  const benchIds = ids.slice(options.warmup);
  const setupMs = performance.now() - setupStarted;
  log(`setup: portal started and ${total} drafts with one PDF each created in ${seconds(setupMs)} (untimed)`);

  const submit = async (id: number) => {
    const body = await api.call(requester, 'PATCH', `/requests/${id}`, { status: 'Submitted' }, [200]);
    if (body.status !== 'Submitted' || !body.requestNumber) throw new Error(`submit ${id}: unexpected answer ${JSON.stringify(body).slice(0, 300)}`);
    return body.requestNumber as number;
  };
  const approve = (numberOf: Map<number, number>) => async (id: number) => {
    const body = await api.call(admin, 'PATCH', `/requests/${id}`, { status: 'Approved', verified: true }, [200]);
    if (body.status !== 'Approved') throw new Error(`approve ${id}: unexpected answer ${JSON.stringify(body).slice(0, 300)}`);
    return numberOf.get(id)!;
  };

  // Warm-up: the first workflow tasks, the first Chromium launch and letter, the first SMTP connections.
  let warmupMs = 0;
  let warmupNumbers: number[] = [];
  if (options.warmup > 0) {
    const warmupStarted = performance.now();
    const warmSampler = new ResourceSampler();
    const warmSubmit = await runPhase('warm-up submit', warmupIds, tracker, 'confirmation', warmSampler, submit);
    warmupNumbers = warmSubmit.numbers;
    const warmNumbers = new Map(warmupIds.map((id, i) => [id, warmSubmit.numbers[i]]));
    await runPhase('warm-up approve', warmupIds, tracker, 'approval', warmSampler, approve(warmNumbers));
    warmupMs = performance.now() - warmupStarted;
    log(`warm-up: ${options.warmup} requests submitted and approved end to end in ${seconds(warmupMs)} (not counted: ` +
      'workflow start-up, Chromium launch and first letter are excluded from the figures)');
  }

  // The floor: on the same dev server, warm, the portal idle; the same number of commands and concurrency.
  let floor: Floor | null = null;
  if (options.floor) {
    log(`floor: ${options.requests} minimal workflows by update-with-start, then one more update each, concurrency ${options.concurrency}…`);
    floor = await measureFloor({
      client: portal.temporal, address: portal.config.temporalAddress, namespace: portal.config.temporalNamespace,
      databaseUrl: portal.config.databaseUrl, count: options.requests, concurrency: options.concurrency, warmup: 5,
      temporalCpu: () => cpuSnapshot()?.temporalMs ?? null,
    });
  }

  const rssAfterWarmup = process.memoryUsage.rss();
  const snapshotDir = path.join(RESULTS_DIR, 'heap');
  // request workflows only: the floor's and the schedules' runs live on other queues or types
  const openWorkflows = async () => (await portal.temporal.workflow.count(`WorkflowType="${REQUEST_WORKFLOW_TYPE}" AND ExecutionStatus="Running"`)).count;
  const memoryBefore = options.memory ? await sampleWorkerMemory(portal.worker!, 'before submits', await openWorkflows(), snapshotDir) : null;
  const phase1 = await runPhase('phase 1 submit', benchIds, tracker, 'confirmation', sampler, submit);
  let workerMemory: ReturnType<typeof reportWorkerMemory> | null = null;
  if (memoryBefore) {
    await sleep(SETTLE_MS);
    const memoryAfter = await sampleWorkerMemory(portal.worker!, 'after submits', await openWorkflows(), snapshotDir);
    workerMemory = reportWorkerMemory(memoryBefore, memoryAfter, portal.config.maxCachedWorkflows, !!process.env.BENCH_KEEP_HEAP_SNAPSHOTS);
  }
  const numberOf = new Map(benchIds.map((id, i) => [id, phase1.numbers[i]]));
  const phase2 = await runPhase('phase 2 approve', benchIds, tracker, 'approval', sampler, approve(numberOf));
  const peakChildrenRss = Math.max(phase1.peakChildrenRss, phase2.peakChildrenRss);

  // The instant scenario: a rule on, the office's switch on, certificates issued at submit (bench/instant-scenario.ts).
  let instant: InstantScenarioResult | null = null;
  let instantFloor: Floor | null = null;
  if (options.instant > 0) {
    const employee = await api.login(DEV_INTERNAL_REQUESTER.email, DEV_INTERNAL_REQUESTER.password);
    instant = await runInstantScenario({
      api, adminToken: admin, requesterToken: employee, sink: portal.sink, temporal: portal.temporal, timeZone: portal.config.clockPolicy.calendar.timeZone,
      count: options.instant, warmup: Math.min(options.warmup, 2), pdf: SAMPLE_PDF, log, stallMs: STALL_TIMEOUT_MS,
    });
    if (options.floor) {
      log(`floor at concurrency 1 for the instant scenario: ${options.instant} minimal workflows by update-with-start…`);
      instantFloor = await measureFloor({
        client: portal.temporal, address: portal.config.temporalAddress, namespace: portal.config.temporalNamespace,
        databaseUrl: portal.config.databaseUrl, count: options.instant, concurrency: 1, warmup: 5,
        temporalCpu: () => cpuSnapshot()?.temporalMs ?? null,
      });
    }
  }

  await sleep(SETTLE_MS); // a late duplicate would show up here
  // BENCH_HISTORY_DIR: three measured requests' histories as JSON, to read where a command's time goes by event time.
  if (process.env.BENCH_HISTORY_DIR) {
    for (const n of phase1.numbers.slice(10, 13)) {
      const events = (await portal.temporal.workflow.getHandle(requestWorkflowId(n)).fetchHistory()).events;
      fs.writeFileSync(path.join(process.env.BENCH_HISTORY_DIR, `request-${n}.json`), JSON.stringify(events));
    }
  }
  const history = historyShares((await portal.temporal.workflow.getHandle(requestWorkflowId(phase1.numbers[0])).fetchHistory()).events as never);
  const mail = verifyMail(tracker, phase1.numbers, warmupNumbers, instant ? [...instant.warmupNumbers, ...instant.numbers] : [], portal.sink);
  const problems = mail.problems;

  const s = {
    submitCall: summarize(phase1.samples.call),
    submitToConfirmation: summarize(phase1.samples.toEmail),
    approveCall: summarize(phase2.samples.call),
    approveToEmail: summarize(phase2.samples.toEmail),
  };
  const timedMs = phase1.wallMs + phase2.wallMs;
  const totalWallMs = performance.now() - wallStarted;
  const peakRss = Math.max(phase1.peakRss, phase2.peakRss);
  const othersMs = (phase1.cpuMs.others ?? 0) + (phase2.cpuMs.others ?? 0);
  const othersShare = othersMs / (timedMs * cpus.length);

  console.log('');
  console.log(`Request flow benchmark: ${options.requests} credentialing requests, concurrency ${options.concurrency}, ` +
    `${options.processes === 2 ? 'API and worker in processes of their own' : 'API and worker in one process'}, ` +
    `${cpus.length} cores, Node ${process.version}`);
  console.log(`Warm-up: ${options.warmup} requests end to end before timing (not counted).`);
  console.log('');
  console.log(table([
    ['submit call (PATCH Submitted)', s.submitCall],
    ['submit → confirmation email', s.submitToConfirmation],
    ['approve call (PATCH Approved)', s.approveCall],
    ['approve → approval email received', s.approveToEmail],
  ]));
  console.log('');
  const rate = (n: number, ms: number) => `${(n / (ms / 1000)).toFixed(2)} req/s`;
  const benchLabel = options.processes === 2 ? 'API' : 'bench (API + worker)';
  const threadsLabel = portal.apiProcess ? 'API threads' : 'bench threads';
  const cpuSeconds = (ms: number | null) => (ms === null ? '?' : seconds(ms));
  const cpuLine = (p: Phase) => `CPU-s: ${benchLabel} ${cpuSeconds(p.cpuMs.bench)}, ${p.cpuMs.worker === null ? '' : `worker ${cpuSeconds(p.cpuMs.worker)}, `}Temporal ${cpuSeconds(p.cpuMs.temporal)}, ` +
    `Chromium ${cpuSeconds(p.cpuMs.chromium)}, mail sink ${cpuSeconds(p.cpuMs.mailSink)}, other programs ${cpuSeconds(p.cpuMs.others)} of ${seconds(p.wallMs * cpus.length)}`;
  console.log(`phase 1 (submit ${options.requests} + all confirmations):   ${seconds(phase1.wallMs).padStart(8)}  ${rate(options.requests, phase1.wallMs)}  (${cpuLine(phase1)})`);
  console.log(`phase 2 (approve ${options.requests} + all approval emails): ${seconds(phase2.wallMs).padStart(8)}  ${rate(options.requests, phase2.wallMs)}  (${cpuLine(phase2)})`);
  for (const [name, p] of [['phase 1', phase1], ['phase 2', phase2]] as const) {
    const per = (ms: number | null) => (ms === null ? '?' : (ms / options.requests).toFixed(1));
    const split = (groups: Record<string, number>) => Object.entries(groups).filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1])
      .map(([group, ms]) => `${group} ${per(ms)}`).join(', ');
    console.log(`${name} CPU-ms per request: ${benchLabel} ${per(p.cpuMs.bench)}, ${p.cpuMs.worker === null ? '' : `worker ${per(p.cpuMs.worker)}, `}Temporal ${per(p.cpuMs.temporal)}, Chromium ${per(p.cpuMs.chromium)}, mail sink ${per(p.cpuMs.mailSink)}` +
      ` (${threadsLabel}: ${split(p.threads)}${p.workerThreads ? `; worker threads: ${split(p.workerThreads)}` : ''}); calls answered at ${rate(options.requests, p.callsWallMs)}`);
    if (p.profile) {
      const top = (rows: Array<[string, number]>) => rows.slice(0, 14).map(([c, ms]) => `${c} ${per(ms)}`).join(', ');
      console.log(`  main thread profile, ms per request by code (self): ${top(p.profile.self)}`);
      console.log(`  main thread profile, ms per request by nearest caller of ours: ${top(p.profile.owner)}`);
      console.log(`  PostgreSQL round trips per request: ${Object.entries(p.queries ?? {}).sort((a, b) => b[1] - a[1]).map(([who, n]) => `${who} ${per(n)}`).join(', ')}`);
    }
  }
  console.log(`timed total (phase 1 + 2):                 ${seconds(timedMs).padStart(8)}  ${rate(options.requests, timedMs)} end to end`);
  console.log(`setup ${seconds(setupMs)}, warm-up ${seconds(warmupMs)}; wall time of the whole run ${seconds(totalWallMs)} (before cleanup)`);
  const peakWorkerRss = Math.max(phase1.peakWorkerRss, phase2.peakWorkerRss);
  const apiHwm = portal.apiProcess?.hwmBytes() ?? 0;
  if (portal.apiProcess) {
    // The kernel's high-water mark covers the whole life of the API process (start-up and warm-up included).
    console.log(`API process RSS peak ${mib(apiHwm)} (≤ 250 MiB: ${apiHwm <= API_RSS_LIMIT_BYTES ? 'MET' : 'MISSED'}; `
      + `phases: ${mib(Math.max(phase1.peakApiRss, phase2.peakApiRss))}), worker process RSS peak ${mib(peakWorkerRss)}`);
    for (const [name, p] of [['phase 1', phase1], ['phase 2', phase2]] as const) if (p.apiPeak) console.log(`  API memory, ${name}: ${describePeak(p.apiPeak)}`);
  }
  console.log(`RSS of the bench process (${portal.apiProcess ? 'the HTTP client' : benchLabel}): ${mib(rssAfterWarmup)} after warm-up, peak ${mib(peakRss)} during the phases; ` +
    `${portal.worker ? `worker process peak ${mib(peakWorkerRss)}; ` : ''}child processes (${portal.apiProcess ? 'API, ' : ''}${portal.worker ? 'worker, ' : ''}Temporal dev server, Chromium) peak ${mib(peakChildrenRss)}`);
  console.log(`one request's workflow history (request ${phase1.numbers[0]}): submit ${describeShare(history.submit)}; approve ${describeShare(history.approve)}`);
  const targets = {
    submitP95: s.submitCall.p95 <= 100, approveP95: s.approveCall.p95 <= 100,
    submitsPerSecond: options.requests / (phase1.wallMs / 1000) >= 100,
  };
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
  console.log(`targets (concurrency ${options.concurrency}): submit call p95 ≤ 100 ms ${yes(targets.submitP95)} (${s.submitCall.p95}); ` +
    `approve call p95 ≤ 100 ms ${yes(targets.approveP95)} (${s.approveCall.p95}); ≥ 100 submits/s with their confirmations ` +
    `${yes(targets.submitsPerSecond)} (${rate(options.requests, phase1.wallMs)}); 1-minute load average ${os.loadavg()[0].toFixed(2)}`);
  let floorTargets: TargetRow[] | null = null;
  if (floor) {
    console.log('');
    printFloor(floor, options.requests, options.concurrency, (line) => console.log(line));
    const cpuPerSubmit = phase1.cpuMs.temporal === null ? null
      : (phase1.cpuMs.bench + (phase1.cpuMs.worker ?? 0) + phase1.cpuMs.temporal + (phase1.cpuMs.chromium ?? 0)) / options.requests;
    floorTargets = targetRows(floor, options.requests, {
      concurrency: options.concurrency, submitCall: s.submitCall, approveCall: s.approveCall, approveToEmail: s.approveToEmail,
      submitsPerSecond: options.requests / (phase1.wallMs / 1000), approvalsPerSecond: options.requests / (phase2.wallMs / 1000),
      cpuMsPerSubmit: cpuPerSubmit,
    });
    printTargets(floorTargets, (line) => console.log(line));
    console.log('');
  }
  let instantTargets: ReturnType<typeof printInstant> | null = null;
  if (instant) {
    if (instantFloor) printFloor(instantFloor, options.instant, 1, (line) => console.log(line));
    const floorP95 = instantFloor ? floorFigures(instantFloor.updateWithStart, options.instant).p95 : null;
    instantTargets = printInstant(instant, summarize, floorP95, (line) => console.log(line));
    if (options.concurrency === 1) {
      console.log(`  beside the credentialing submits of phase 1 (no rule covers them): submit call p50 ${s.submitCall.p50} / p95 ${s.submitCall.p95} ms`);
    }
    console.log('');
  }
  if (slowGrpcCalls) console.log(`Temporal dev server: ${slowGrpcCalls} "Slow gRPC call" warnings (updates that waited several seconds)`);
  console.log(`emails: ${mail.counts.confirmations} confirmations, ${mail.counts.approvals} approval emails with ` +
    `${mail.counts.letters} PDF letters (expected ${options.requests} each); ${mail.counts.totalReceived} received in all incl. warm-up, ` +
    `${mail.counts.other} unexpected`);

  // The machine's speed, measured after every timed phase (figures compare only with it; none in a smoke run).
  const calibrated = calibration();
  if (calibrated) console.log(`calibrate: ${calibrated}`);

  const result = {
    startedAt: startedAt.toISOString(),
    calibrate: calibrated,
    options: { ...options },
    machine: {
      cores: cpus.length, cpuModel: cpus[0]?.model.trim() ?? null, totalMemBytes: os.totalmem(),
      platform: `${os.type()} ${os.release()}`, node: process.version,
    },
    latencyMs: s,
    wallMs: {
      setup: Math.round(setupMs), warmup: Math.round(warmupMs), phase1: Math.round(phase1.wallMs), phase2: Math.round(phase2.wallMs),
      timed: Math.round(timedMs), total: Math.round(totalWallMs),
    },
    throughputPerSecond: {
      phase1: options.requests / (phase1.wallMs / 1000),
      phase2: options.requests / (phase2.wallMs / 1000),
      endToEnd: options.requests / (timedMs / 1000),
    },
    cpuMs: { phase1: phase1.cpuMs, phase2: phase2.cpuMs, capacityPerPhase: { phase1: Math.round(phase1.wallMs * cpus.length), phase2: Math.round(phase2.wallMs * cpus.length) } },
    loadAverageAtStart: loadAtStart,
    workerMemory,
    rssBytes: { afterWarmup: rssAfterWarmup, peak: peakRss, childrenPeak: peakChildrenRss, workerPeak: portal.worker ? peakWorkerRss : null,
      apiPeak: portal.apiProcess ? apiHwm : null, apiPhases: portal.apiProcess ? { phase1: phase1.apiPeak, phase2: phase2.apiPeak } : null },
    mail: mail.counts,
    temporalSlowGrpcWarnings: slowGrpcCalls,
    threadCpuMs: { phase1: phase1.threads, phase2: phase2.threads },
    workerThreadCpuMs: { phase1: phase1.workerThreads, phase2: phase2.workerThreads },
    mainThreadProfileMs: { phase1: phase1.profile, phase2: phase2.profile },
    history,
    targets,
    floor: floor ? { updateWithStart: floorFigures(floor.updateWithStart, options.requests), update: floorFigures(floor.update, options.requests) } : null,
    floorTargets,
    instant: instant ? {
      requests: instant.numbers.length,
      latencyMs: {
        submitCall: summarize(instant.samplesMs.submitCall), submitToCertificate: summarize(instant.samplesMs.submitToCertificate),
        decision: summarize(instant.samplesMs.decision), decisionActivity: summarize(instant.samplesMs.decisionActivity),
      },
      floor: instantFloor ? floorFigures(instantFloor.updateWithStart, options.instant) : null,
      targets: instantTargets,
      samplesMs: instant.samplesMs,
    } : null,
    loadAverageAtEnd: os.loadavg().map((x) => Math.round(x * 100) / 100),
    otherProgramsCpuShare: Math.round(othersShare * 1000) / 1000,
    problems,
    ok: problems.length === 0,
    samplesMs: {
      submitCall: phase1.samples.call.map((x) => Math.round(x * 10) / 10),
      submitToConfirmation: phase1.samples.toEmail.map((x) => Math.round(x * 10) / 10),
      approveCall: phase2.samples.call.map((x) => Math.round(x * 10) / 10),
      approveToEmail: phase2.samples.toEmail.map((x) => Math.round(x * 10) / 10),
    },
  };
  const resultsDir = RESULTS_DIR;
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  if (othersShare > 0.1) {
    console.log(`WARNING: other programs used ${(othersShare * 100).toFixed(0)}% of the machine's CPU during the timed phases; ` +
      'these figures are not comparable with a run on a quiet machine.');
  }
  console.log(`results: ${path.relative(process.cwd(), file)}`);
  console.log('');

  if (problems.length) {
    warn(`FAILED: ${problems.length} problem(s):`);
    for (const p of problems.slice(0, 30)) warn(`  ${p}`);
    if (problems.length > 30) warn(`  … and ${problems.length - 30} more`);
    return 1;
  }
  log('OK: every request got exactly one confirmation and one approval email with its PDF letter');
  return 0;
}

// ---------------------------------------------------------------------------------------------------------------

// Whatever ends the run (done, failed, Ctrl-C), what it started is stopped: bench/lifecycle.ts.
runBench('bench', main);
