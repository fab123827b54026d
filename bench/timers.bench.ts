/**
 * `npm run bench:timers [-- --holders 10000 --step 1000 --firing 100]`: thousands of open requests each holding a
 * durable timer. Does the worker's memory, and the time from a reminder's due instant to its audit row
 * and email, stay flat from 1,000 to 10,000 open workflows?
 *
 *   setup      throw-away database (coi_bench_timers_<pid>), in-memory headless Temporal dev server, SMTP sink, the
 *              request worker in this process (its workflow cache bounded by WORKER_MAX_CACHED_WORKFLOWS, default 1000)
 *   holders    workflows started directly with the client, light input (the clock state and policy, no database row):
 *              each arms an escalation timer due in two (compressed) days = two hours, which never fires during the run
 *   per level  (1,000 then 10,000 holders) once every holder has armed its timer (RequestClock="escalation" counted in
 *              visibility): the worker's RSS and heap, then `--firing` workflows of real request rows whose escalation
 *              falls due at one instant a few seconds later. Latencies from the due instant: to the workflow task that
 *              acted on the fired timer (the audit row's `date`, workflow time: "finding" the due reminder), to the
 *              audit row written (its created_at), to the email received. Each firing request must get exactly one
 *              email and one audit row. The 1-minute load average is printed: other programs on the machine show.
 *
 * Prints the figures and writes bench/results/timers-<timestamp>.json. Exit 0 when every check passed.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dropDatabase, dropOrphanedDatabases } from '../db/database';
import { RequestActivitySchema, RequestSchema } from '../db/entities';
import { prepareDatabase } from '../db/prepare-database';
import { startPortalInProcess } from '../devtools/portal-in-process';
import { ESCALATION_ACTIVITY, STATUS, type ClockState } from '../domain';
import { ensureTemporalServer, freePort } from '../devtools/temporal/dev-server';
import { REQUEST_WORKFLOW_TYPE, type RequestWorkflowInput } from '../workflows/request.messages';
import { RESULTS_DIR, runBench, stopLater } from './lifecycle';

const options = { holders: 10_000, step: 1_000, firing: 50, concurrency: 64 };
const args = process.argv.filter((arg) => arg !== '--smoke'); // bench/lifecycle.ts reads it
for (let i = 2; i < args.length; i += 2) {
  const key = args[i].replace(/^--/, '') as keyof typeof options;
  if (!(key in options) || !Number.isInteger(Number(args[i + 1]))) {
    console.error('usage: npm run bench:timers -- [--holders 10000] [--step 1000] [--firing 100] [--concurrency 64]');
    process.exit(2);
  }
  options[key] = Number(args[i + 1]);
}

const HOUR_MS = 3_600_000;
/** every day lasts an hour: holders' escalations (two days) fall due long after the run */
const DAY_MS = HOUR_MS;
/** how far ahead of the start of a firing batch its due instant is: time to start and arm every firing workflow */
const FIRING_LEAD_MS = 15_000;

const log = (line: string) => console.log(`[bench:timers] ${line}`);
const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

async function main(): Promise<number> {
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
  const serverUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  serverUrl.pathname = '/postgres';
  serverUrl.search = '';
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/coi_bench_timers_${process.pid}`;
  for (const name of await dropOrphanedDatabases(serverUrl.toString(), 'coi_bench_timers_')) log(`dropped stale database ${name}`);
  stopLater('drop the database', () => dropDatabase(dbUrl.toString()));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-bench-timers-'));
  stopLater('remove the data folder', () => rm(dataDir, { recursive: true, force: true }));

  const address = `127.0.0.1:${await freePort()}`;
  const [, server] = await Promise.all([
    prepareDatabase(dbUrl.toString()),
    ensureTemporalServer({ address, log: () => {} }),
  ]);
  stopLater('stop the Temporal dev server', () => server.stop());
  // The portal's workers and an SMTP sink in this process (no API calls here; Chromium is never launched: no letters).
  const portal = await startPortalInProcess({
    env: {
      ...process.env, DATABASE_URL: dbUrl.toString(), TEMPORAL_ADDRESS: address, TEMPORAL_TASK_QUEUE: `bench-timers-${randomBytes(4).toString('hex')}`,
      DATA_DIR: dataDir, CLOCK_DAY_SECONDS: String(DAY_MS / 1000), ESCALATION_BUSINESS_DAYS: '2',
    },
  });
  stopLater('stop the portal (workers, SMTP sink, ORM)', () => portal.stop());
  const { config, orm, temporal } = portal;
  const sink = portal.sink!;
  log(`Node ${process.version}, ${os.cpus().length} cores; worker maxCachedWorkflows=${config.maxCachedWorkflows}; Temporal ${address}`);

  const received = new Map<string, number[]>();
  sink.subscribe((m) => { const times = received.get(m.subject) ?? []; times.push(Date.now()); received.set(m.subject, times); });

  const clocksAt = (statusSince: number): ClockState => ({
    status: STATUS.submitted, statusSince: new Date(statusSince).toISOString(), remindersSent: 0, escalated: false,
    signedReleaseDate: null, signedReleaseRecordedAt: null, releaseExpiryHandled: false,
  });
  const inputOf = (requestId: number, requestNumber: number, statusSince: number): RequestWorkflowInput => ({
    requestId, requestNumber, requestType: 'credentialing', status: STATUS.submitted, pendingEffects: [],
    clockPolicy: config.clockPolicy, clocks: clocksAt(statusSince),
  });

  let holders = 0;
  async function startHolders(upTo: number) {
    const started = Date.now();
    const numbers = Array.from({ length: upTo - holders }, (_, i) => holders + i);
    await pool(numbers, options.concurrency, async (i) => {
      await temporal.workflow.start(REQUEST_WORKFLOW_TYPE, {
        workflowId: `bench-hold-${i}`, taskQueue: config.taskQueue, args: [inputOf(0, 1_000_000 + i, Date.now())],
      });
    });
    holders = upTo;
    // Every holder has run its first task once its clock is published.
    for (;;) {
      const { count } = await temporal.workflow.count(`RequestClock="escalation"`); // fired ones have cleared theirs
      if (count >= holders) break;
      await sleep(1000);
    }
    log(`${holders} holders open, each with its escalation timer armed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }

  let batch = 0;
  const results: Array<Record<string, number>> = [];
  async function measure(): Promise<boolean> {
    await sleep(3000); // let the worker settle before sampling memory
    const memory = process.memoryUsage();
    batch += 1;
    const em = orm.em.fork();
    const rows = Array.from({ length: options.firing }, (_, i) => em.create(RequestSchema, {
      requestType: 'credentialing', status: STATUS.submitted, source: 'bench', requesterId: 1, employerType: 'external',
      requesterEmail: 'requester@hospital.example', requesterName: 'Bench Requester', requestNumber: 2_000_000 + batch * 10_000 + i,
      lastName: 'Timer', firstName: 'Bench',
    }));
    await em.flush();
    const due = Date.now() + FIRING_LEAD_MS;
    await pool(rows, options.concurrency, async (row) => {
      await temporal.workflow.start(REQUEST_WORKFLOW_TYPE, {
        workflowId: `bench-fire-${row.requestNumber}`, taskQueue: config.taskQueue, args: [inputOf(row.id, row.requestNumber!, due - 2 * DAY_MS)],
      });
    });
    const armedLate = Date.now() > due;
    const ids = rows.map((r) => r.id);
    const subjects = rows.map((r) => `Request ${r.requestNumber} is waiting for review`);
    const deadline = due + 120_000;
    while (Date.now() < deadline && subjects.some((s) => !received.has(s))) await sleep(250);
    await sleep(2000); // a duplicate would arrive by now
    const audit = await orm.em.fork().find(RequestActivitySchema, { requestId: { $in: ids }, activityType: ESCALATION_ACTIVITY });
    const fireLatency = audit.map((a) => a.date.getTime() - due);
    const auditLatency = audit.map((a) => a.createdAt.getTime() - due);
    const emailLatency = subjects.flatMap((s) => received.get(s) ?? []).map((t) => t - due);
    const exactlyOnce = subjects.every((s) => received.get(s)?.length === 1) && audit.length === rows.length
      && new Set(audit.map((a) => a.requestId)).size === rows.length;
    const result = {
      openWorkflows: holders + options.firing, rssMiB: mib(memory.rss), heapUsedMiB: mib(memory.heapUsed), loadAverage: Number(os.loadavg()[0].toFixed(1)),
      fireP50Ms: percentile(fireLatency, 50), fireP95Ms: percentile(fireLatency, 95), fireMaxMs: Math.max(...fireLatency),
      auditP50Ms: percentile(auditLatency, 50), auditP95Ms: percentile(auditLatency, 95), auditMaxMs: Math.max(...auditLatency),
      emailP50Ms: percentile(emailLatency, 50), emailP95Ms: percentile(emailLatency, 95), emailMaxMs: Math.max(...emailLatency),
      emails: emailLatency.length, auditRows: audit.length,
    };
    results.push(result);
    log(`${holders} holders + ${options.firing} firing (load average ${result.loadAverage}): RSS ${result.rssMiB} MiB, heap ${result.heapUsedMiB} MiB; `
      + `due → timer acted on p50 ${result.fireP50Ms} ms, p95 ${result.fireP95Ms} ms, max ${result.fireMaxMs} ms; due → audit row p50 ${result.auditP50Ms} ms, `
      + `p95 ${result.auditP95Ms} ms, max ${result.auditMaxMs} ms; due → email p50 ${result.emailP50Ms} ms, p95 ${result.emailP95Ms} ms; `
      + `${result.emails} emails, ${result.auditRows} audit rows${exactlyOnce ? ' (exactly one each)' : ' — NOT exactly one each'}`);
    if (armedLate) log('warning: the firing batch was armed after its due instant (raise FIRING_LEAD_MS)');
    return exactlyOnce;
  }

  const started = Date.now();
  let ok = true;
  for (let level = options.step; ; level = Math.min(options.holders, level * 10)) {
    await startHolders(level);
    ok = (await measure()) && ok;
    if (level >= options.holders) break;
  }
  const file = path.join(RESULTS_DIR, `timers-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ options, maxCachedWorkflows: config.maxCachedWorkflows, results }, null, 1)}\n`);
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; results in ${path.relative(process.cwd(), file)}`);
  return ok ? 0 : 1;
}

runBench('bench:timers', main);
