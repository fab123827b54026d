/**
 * `npm run bench:letters [-- --renders 50 --letters 100 --concurrency 8 --warmup 5]`: the approval letters and
 * their targets (below), on real parts in one process: PostgreSQL (a throw-away database coi_bench_letters_<pid>), a
 * headless in-memory Temporal dev server, the in-process SMTP sink, Chromium, the request worker and the API.
 *
 *   cold        a renderer created with the browser not launched, asked for a letter at once, until the PDF bytes
 *               exist; then the first letter of the worker's own renderer once the worker has started
 *   burst       `--letters` credentialing requests submitted (untimed), then all approved over HTTP with
 *               `--concurrency` calls in flight: letters/s until the last approval email with its PDF has arrived,
 *               and CPU-ms per letter of this process (API + worker), the Temporal dev server and Chromium
 *   warm        `--renders` letters through the worker's renderer (warm browser): p50/p95; then as many runs of the
 *               whole `renderEffectLetter` activity (render + store the file + the document and audit rows)
 *   signing     the office's signature on a printed letter, alone (p50/p95), and the activity without and with it,
 *               alternating (before/after)
 *
 * Targets: signing adds ≤ 30 ms p95 per letter; one PDF p95 ≤ 300 ms warm; ≥ 20 approvals with letter and email per second in the burst; the first
 * letter after a start ≤ 2 s. Prints each with yes/no, writes bench/results/letters-<timestamp>.json, exits 1 when a
 * target is missed (not with `--smoke`) or an approval email is missing, doubled or without its PDF.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { renderEffectLetterActivity } from '../activities/effects/render-letter';
import { ChromiumPdfRenderer } from '../activities/pdf/chromium-pdf-renderer';
import { prelaunchLetterRenderer, renderLetterDocument } from '../activities/pdf/letter-documents';
import { loadLetterSigner } from '../activities/pdf/letter-signing-key';
import { loadConfig } from '../config/app-config';
import { dropDatabase, dropOrphanedDatabases } from '../db/database';
import { RequestEffectSchema } from '../db/entities';
import { prepareDatabase } from '../db/prepare-database';
import { DEV_ADMIN, DEV_REQUESTER } from '../db/seed-data';
import { startPortalInProcess } from '../devtools/portal-in-process';
import type { Received } from '../devtools/smtp-sink';
import { ensureTemporalServer, freePort } from '../devtools/temporal/dev-server';
import { LETTER_CHROMIUM_PATH } from '../config/app-config';
import { RESULTS_DIR, runBench, stopLater, targetsFailTheRun } from './lifecycle';

const TARGETS = { warmP95Ms: 300, burstPerSecond: 20, firstLetterMs: 2000, signingP95Ms: 30 };
const USAGE = 'usage: npm run bench:letters -- [--renders N (50)] [--letters N (100)] [--concurrency C (8)] [--warmup W (5)]';

function parseArgs(argv: string[]) {
  const options = { renders: 50, letters: 100, concurrency: 8, warmup: 5 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--smoke') continue; // bench/lifecycle.ts reads it
    const [flag, inline] = argv[i].split('=', 2) as [string, string | undefined];
    const key = flag.replace(/^--/, '');
    if (!(key in options) || !flag.startsWith('--')) { console.error(`unknown argument "${argv[i]}"\n${USAGE}`); process.exit(2); }
    const value = Number(inline ?? argv[++i]);
    if (!Number.isInteger(value) || value < (key === 'warmup' ? 0 : 1)) { console.error(`--${key} needs a positive integer\n${USAGE}`); process.exit(2); }
    (options as Record<string, number>)[key] = value;
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error(`[letters] Node ${process.version}: run it with  npm run bench:letters  (Node 24 from node_modules/.bin)`);
  process.exit(2);
}
const log = (line: string) => console.log(`[letters] ${line}`);
const round = (x: number) => Math.round(x * 10) / 10;
const STALL_MS = 60_000;

// ---------------------------------------------------------------------------------------------------------------
// Figures: nearest-rank percentiles; CPU of this process, of the Temporal dev server and of Chromium (/proc)

function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]);
  return { n: sorted.length, p50: at(50), p95: at(95), max: at(100), mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length) };
}

const TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU-ms so far of the machine, of this process, and of its descendants split into the Temporal server and the rest. */
function cpuSnapshot(temporalPid: number | null) {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
      parent.set(Number(entry), f[1]);
      cpu.set(Number(entry), (f[11] + f[12] + f[13] + f[14]) * TICK_MS); // utime stime cutime cstime: reaped helpers count
    } catch { /* gone */ }
  }
  const below = (pid: number, root: number) => { let p = parent.get(pid); while (p && p !== root && p !== 1) p = parent.get(p); return p === root; };
  let temporal = 0;
  let chromium = 0;
  for (const pid of cpu.keys()) {
    if (!below(pid, process.pid)) continue;
    if (pid === temporalPid || (temporalPid !== null && below(pid, temporalPid))) temporal += cpu.get(pid)!;
    else chromium += cpu.get(pid)!; // everything else this process starts is Chromium and its helpers
  }
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  const self = process.cpuUsage();
  return {
    machine: (user + nice + system + irq + softirq + (steal ?? 0)) * TICK_MS,
    bench: (self.user + self.system) / 1000, temporal, chromium,
  };
}
type CpuSnapshot = ReturnType<typeof cpuSnapshot>;

function cpuPer(before: CpuSnapshot, after: CpuSnapshot, count: number, wallMs: number) {
  const per = (key: keyof CpuSnapshot) => round((after[key] - before[key]) / count);
  const ours = after.bench - before.bench + after.temporal - before.temporal + after.chromium - before.chromium;
  return {
    benchMs: per('bench'), temporalMs: per('temporal'), chromiumMs: per('chromium'),
    otherProgramsShare: round(Math.max(0, (after.machine - before.machine - ours) / (wallMs * os.cpus().length)) * 100) / 100,
  };
}

/** A letter as an approval's snapshot holds it (the sample for the cold and warm renders): five policy years. */
function sampleLetterHtml(requestNumber: number): string {
  const policyYears = Array.from({ length: 5 }, (_, i) => ({
    startDate: `${2020 + i}-07-01T00:00:00.000Z`, endDate: `${2021 + i}-06-30T00:00:00.000Z`,
    policyNumber: `UHS-PL-${2020 + i}-${21 + i}`, limitClaim: '1000000.00', annualAggregate: '3000000.00',
  }));
  return renderLetterDocument({
    kind: 'credentialing-letter', requestNumber, issuedOn: new Date().toISOString(), clinicianName: 'Avery Q Bench',
    birthDate: '1980-04-12T11:00:00.000Z', dateFrom: '2020-01-01T11:00:00.000Z', dateTo: '2024-12-31T11:00:00.000Z',
    recipientName: 'Rowan Requester', recipientCompany: 'Mercy Clinic', policyYears, claims: [],
  }).html;
}

const SAMPLE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

async function main(): Promise<number> {
  const startedAt = new Date();
  const cpus = os.cpus();
  const loadAverage = () => os.loadavg().map((x) => Math.round(x * 100) / 100);
  const loadAtStart = loadAverage();
  log(`Node ${process.version}, ${cpus.length} cores (${cpus[0]?.model.trim() ?? '?'}), load average ${loadAtStart.join(' ')}`);
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
  const chromiumPath = process.env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH;

  // Cold: nothing launched yet, the letter asked for at once (the worst case: no time to prelaunch).
  const coldRenderer = new ChromiumPdfRenderer(chromiumPath);
  stopLater('close the cold renderer', () => coldRenderer.close());
  const coldStarted = performance.now();
  const coldBytes = await coldRenderer.render(sampleLetterHtml(1));
  const coldMs = performance.now() - coldStarted;
  await coldRenderer.close();
  log(`cold: first letter of a new renderer in ${coldMs.toFixed(0)} ms (${coldBytes.length} bytes)`);

  // The portal in this process (devtools/portal-in-process.ts), as the other benches and the tests start it.
  const serverUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  serverUrl.pathname = '/postgres';
  serverUrl.search = '';
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/coi_bench_letters_${process.pid}`;
  for (const name of await dropOrphanedDatabases(serverUrl.toString(), 'coi_bench_letters_')) log(`dropped stale database ${name}`);
  await dropDatabase(dbUrl.toString()).catch(() => {});
  stopLater('drop database', () => dropDatabase(dbUrl.toString()));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-bench-letters-'));
  stopLater('remove data dir', () => rm(dataDir, { recursive: true, force: true }));
  const address = `127.0.0.1:${await freePort()}`;
  const [, server] = await Promise.all([
    prepareDatabase(dbUrl.toString()),
    ensureTemporalServer({ address, log: (line) => { if (/msg=|^\[temporal\] (CLI|Server:|UI:|Metrics:)/.test(line)) return; log(line); } }),
  ]);
  stopLater('stop Temporal dev server', () => server.stop());
  const temporalPid = server.process?.pid ?? null;

  // After a start: the worker's renderer is created and prelaunched as worker/activity-deps.ts does; its first
  // letter is asked for once the portal (worker, then API) runs.
  const workerStarted = performance.now();
  const env = { ...process.env, DATABASE_URL: dbUrl.toString(), TEMPORAL_ADDRESS: address, TEMPORAL_TASK_QUEUE: `letters-${randomBytes(4).toString('hex')}`, DATA_DIR: dataDir, PORT: '0' };
  const pdf = new ChromiumPdfRenderer(loadConfig(env).chromiumPath);
  void prelaunchLetterRenderer(pdf);
  const portal = await startPortalInProcess({ env, pdf, listen: true });
  stopLater('stop the portal (API, worker, Chromium, ORM, SMTP sink)', () => portal.stop());
  const { orm, files } = portal;
  const sink = portal.sink!;
  const baseUrl = portal.baseUrl!;
  const workerReadyMs = performance.now() - workerStarted;
  const firstStarted = performance.now();
  await pdf.render(sampleLetterHtml(2));
  const firstAfterStartMs = performance.now() - firstStarted;
  log(`after a start: portal (worker and API) ready in ${workerReadyMs.toFixed(0)} ms, then its first letter in ${firstAfterStartMs.toFixed(0)} ms`);

  // Requests: drafts with one signed release each, submitted (untimed), over real HTTP like a browser.
  const call = async (token: string | null, method: string, url: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${baseUrl}/api/v1${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : {};
  };
  const login = async (email: string, password: string) => (await call(null, 'POST', '/authentication', { strategy: 'local', email, password })).accessToken as string;
  const requester = await login(DEV_REQUESTER.email, DEV_REQUESTER.password);
  const admin = await login(DEV_ADMIN.email, DEV_ADMIN.password);
  const pool = async <T>(count: number, task: (i: number) => Promise<T>): Promise<T[]> => {
    const results: T[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(options.concurrency, count) }, async () => {
      while (next < count) { const i = next++; results[i] = await task(i); }
    }));
    return results;
  };
  const submitted = async (i: number) => {
    const { id } = await call(requester, 'POST', '/requests', {
      requestType: 'credentialing', lastName: 'Bench', firstName: `Avery${i}`, birthDate: '1980-04-12T11:00:00.000Z',
      dateFrom: '2020-01-01T11:00:00.000Z', dateTo: '2024-12-31T11:00:00.000Z', providerType: 'Current Employee/Fellow/Resident', reason: 'Future employment', releaseAuthorized: true,
    });
    const form = new FormData();
    form.append('requestId', String(id));
    form.append('file', new Blob([SAMPLE_PDF], { type: 'application/pdf' }), 'release.pdf');
    const { storedName } = await call(requester, 'POST', '/upload', form);
    await call(requester, 'POST', '/documents', { requestId: id, filename: 'Signed release.pdf', description: 'Signed release', storedName });
    const body = await call(requester, 'PATCH', `/requests/${id}`, { status: 'Submitted' });
    return { id: id as number, number: body.requestNumber as number };
  };
  const total = options.warmup + options.letters;
  const requests = await pool(total, submitted);
  log(`setup: ${total} requests submitted`);

  const approvals = new Map<number, Received[]>();
  let wake: () => void = () => {};
  const unsubscribe = sink.subscribe((message) => {
    const m = /^Request (\d+) approved:/.exec(message.subject);
    if (!m) return;
    approvals.set(Number(m[1]), [...(approvals.get(Number(m[1])) ?? []), message]);
    wake();
  });
  stopLater('stop listening to the sink', unsubscribe);
  const approveAll = async (batch: typeof requests) => {
    const started = performance.now();
    await pool(batch.length, (i) => call(admin, 'PATCH', `/requests/${batch[i].id}`, { status: 'Approved', verified: true }));
    let seen = -1;
    let progressAt = performance.now();
    for (;;) {
      const left = batch.filter((r) => !approvals.has(r.number)).length;
      if (!left) return performance.now() - started;
      if (left !== seen) { seen = left; progressAt = performance.now(); }
      if (performance.now() - progressAt > STALL_MS) throw new Error(`${left} approval emails missing after ${STALL_MS / 1000} s without progress`);
      await new Promise<void>((resolve) => { const timer = setTimeout(resolve, 500); wake = () => { clearTimeout(timer); resolve(); }; });
    }
  };
  await approveAll(requests.slice(0, options.warmup));

  // Burst: every approval at once (bounded by --concurrency calls in flight), until the last email with its letter.
  const burstRequests = requests.slice(options.warmup);
  const burstLoad = loadAverage();
  const burstBefore = cpuSnapshot(temporalPid);
  const burstMs = await approveAll(burstRequests);
  const burstCpu = cpuPer(burstBefore, cpuSnapshot(temporalPid), burstRequests.length, burstMs);
  const burstPerSecond = burstRequests.length / (burstMs / 1000);
  log(`burst: ${burstRequests.length} approvals with letter and email in ${(burstMs / 1000).toFixed(1)} s = ${burstPerSecond.toFixed(2)}/s (load ${burstLoad.join(' ')})`);
  await new Promise((resolve) => setTimeout(resolve, 2000)); // a late duplicate would arrive here
  const problems: string[] = [];
  for (const r of requests) {
    const mails = approvals.get(r.number) ?? [];
    if (mails.length !== 1) problems.push(`request ${r.number}: ${mails.length} approval emails (expected 1)`);
    const letters = mails[0]?.attachments.filter((a) => Buffer.from(a.content.subarray(0, 5)).toString('latin1') === '%PDF-') ?? [];
    if (mails.length && (letters.length !== 1 || !letters[0].filename.includes(String(r.number)))) problems.push(`request ${r.number}: the approval email lacks its letter`);
  }

  // Warm: the same renderer the activity uses, then the whole activity on copies of the burst's effects.
  const html = sampleLetterHtml(3);
  const renderMs: number[] = [];
  const renderLoad = loadAverage();
  const renderBefore = cpuSnapshot(temporalPid);
  const renderStarted = performance.now();
  let printed = Buffer.alloc(0);
  for (let i = 0; i < options.renders; i++) {
    const t0 = performance.now();
    printed = Buffer.from(await pdf.render(html));
    renderMs.push(performance.now() - t0);
  }
  const renderCpu = cpuPer(renderBefore, cpuSnapshot(temporalPid), options.renders, performance.now() - renderStarted);

  const em = orm.em.fork();
  const model = await em.findOneOrFail(RequestEffectSchema, { kind: 'letter-and-email', state: 'sent' }, { orderBy: { id: 'desc' } });
  // Signing alone (the office's signature on the printed bytes), then the activity unsigned and signed, alternating.
  const signer = loadLetterSigner(portal.config)!;
  const signMs: number[] = [];
  for (let i = 0; i < options.renders; i++) {
    const t0 = performance.now();
    await signer.sign(printed, 'bench');
    signMs.push(performance.now() - t0);
  }
  const keys = Array.from({ length: options.renders * 2 }, (_, i) => `letters-bench:${model.id}:${i}`);
  for (const key of keys) {
    em.create(RequestEffectSchema, {
      idempotencyKey: key, requestId: model.requestId, kind: 'letter', templateTitle: model.templateTitle,
      snapshot: model.snapshot, state: 'pending',
    });
  }
  await em.flush();
  const activity = renderEffectLetterActivity({ orm, pdf, files, config: portal.config, signer });
  const unsignedActivity = renderEffectLetterActivity({ orm, pdf, files, config: portal.config, signer: null });
  const activityMs: number[] = [];
  const unsignedMs: number[] = [];
  const activityBefore = cpuSnapshot(temporalPid);
  const activityStarted = performance.now();
  for (const [i, key] of keys.entries()) {
    const t0 = performance.now();
    await (i % 2 ? activity : unsignedActivity)({ key });
    (i % 2 ? activityMs : unsignedMs).push(performance.now() - t0);
  }
  const activityCpu = cpuPer(activityBefore, cpuSnapshot(temporalPid), keys.length, performance.now() - activityStarted);

  const render = summarize(renderMs);
  const whole = summarize(activityMs);
  const unsigned = summarize(unsignedMs);
  const signing = summarize(signMs);
  const met = {
    signingP95: signing.p95 <= TARGETS.signingP95Ms,
    warmP95: render.p95 <= TARGETS.warmP95Ms,
    burst: burstPerSecond >= TARGETS.burstPerSecond,
    firstLetter: firstAfterStartMs <= TARGETS.firstLetterMs,
  };
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
  console.log('');
  console.log(`Letters benchmark: ${cpus.length} cores, Node ${process.version}, load average at start ${loadAtStart.join(' ')}, now ${loadAverage().join(' ')}`);
  console.log(`warm render (renderer only)       n=${render.n}  p50 ${render.p50} ms  p95 ${render.p95} ms  max ${render.max} ms  ` +
    `CPU-ms/letter: bench ${renderCpu.benchMs}, Chromium ${renderCpu.chromiumMs} (load ${renderLoad.join(' ')})`);
  console.log(`signing (placeholder + CMS)        n=${signing.n}  p50 ${signing.p50} ms  p95 ${signing.p95} ms  max ${signing.max} ms`);
  console.log(`warm renderEffectLetter, unsigned n=${unsigned.n}  p50 ${unsigned.p50} ms  p95 ${unsigned.p95} ms  max ${unsigned.max} ms  (before signing)`);
  console.log(`warm renderEffectLetter, signed   n=${whole.n}  p50 ${whole.p50} ms  p95 ${whole.p95} ms  max ${whole.max} ms  (after signing; ` +
    `CPU-ms/letter of both: bench ${activityCpu.benchMs}, Chromium ${activityCpu.chromiumMs})`);
  console.log(`cold: new renderer, letter at once ${coldMs.toFixed(0)} ms; after a start (worker ready in ${workerReadyMs.toFixed(0)} ms) first letter ${firstAfterStartMs.toFixed(0)} ms`);
  console.log(`burst: ${burstRequests.length} approvals (concurrency ${options.concurrency}) with letter and email in ${(burstMs / 1000).toFixed(1)} s = ` +
    `${burstPerSecond.toFixed(2)}/s; CPU-ms per approval: bench ${burstCpu.benchMs}, Temporal ${burstCpu.temporalMs}, Chromium ${burstCpu.chromiumMs}; ` +
    `other programs ${Math.round(burstCpu.otherProgramsShare * 100)}% of the machine (load ${burstLoad.join(' ')})`);
  console.log(`targets: signing adds p95 ≤ ${TARGETS.signingP95Ms} ms: ${yes(met.signingP95)}; warm PDF p95 ≤ ${TARGETS.warmP95Ms} ms: ${yes(met.warmP95)}; burst ≥ ${TARGETS.burstPerSecond}/s: ${yes(met.burst)}; ` +
    `first letter after a start ≤ ${TARGETS.firstLetterMs} ms: ${yes(met.firstLetter)}`);

  const result = {
    startedAt: startedAt.toISOString(), options, targets: TARGETS, met,
    machine: { cores: cpus.length, cpuModel: cpus[0]?.model.trim() ?? null, node: process.version, loadAverageAtStart: loadAtStart, loadAverageAtEnd: loadAverage() },
    warmRender: { ...render, cpuMsPerLetter: renderCpu, loadAverage: renderLoad },
    signing: signing,
    warmActivityUnsigned: unsigned,
    warmActivity: { ...whole, cpuMsPerLetter: activityCpu },
    cold: { newRendererMs: Math.round(coldMs), workerReadyMs: Math.round(workerReadyMs), firstLetterAfterStartMs: Math.round(firstAfterStartMs) },
    burst: { letters: burstRequests.length, concurrency: options.concurrency, wallMs: Math.round(burstMs), perSecond: round(burstPerSecond), cpuMsPerLetter: burstCpu, loadAverage: burstLoad },
    problems,
    samplesMs: { warmRender: renderMs.map(round), signing: signMs.map(round), warmActivityUnsigned: unsignedMs.map(round), warmActivity: activityMs.map(round) },
  };
  const resultsDir = RESULTS_DIR;
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `letters-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`results: ${path.relative(process.cwd(), file)}`);
  for (const p of problems.slice(0, 20)) console.error(`[letters] problem: ${p}`);
  return problems.length || (!Object.values(met).every(Boolean) && targetsFailTheRun) ? 1 : 0;
}

// Whatever ends the run (done, failed, Ctrl-C), what it started is stopped: bench/lifecycle.ts.
runBench('bench:letters', main);
