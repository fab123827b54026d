/**
 * `npm run bench:renewals [-- --n 2000 --warmup 10 --samples 100 --background 2000]`: renewal season at scale, on
 * real parts: PostgreSQL (a throw-away database coi_bench_renewals_<pid>), a headless in-memory Temporal dev server,
 * the SMTP sink (a process of its own, bench/mail-sink-process.ts), the worker (its own process, with its Chromium
 * lanes) and the API (its own process, the production build: bench/api-process.ts), so that each one's memory is its own.
 *
 *   seed        `--n` + `--warmup` Approved certificate requests (Fleet, Property, Contract in turn), each with a current
 *               issued certificate whose coverage ends with the current policy year, and `--background` credentialing
 *               requests in the dashboard's statuses: SQL, set-based, untimed
 *   warm-up     a run of the first `--warmup` over the API, until each letter is out (not counted)
 *   idle        the Admin Dashboard's first page, `--samples` times one after another (`--pause` ms apart): what the
 *               page asks for on load, GET /admin-dashboard, then one GET /requests page per group of its first tab at once
 *   run         GET /renewals/candidates, then POST /renewal-runs (mode renew: every renewable one), then
 *               GET /renewal-runs/:id every second until done == total (every letter rendered, signed, stored and
 *               emailed: its effect sent); the dashboard's first page is loaded the same way the whole time
 *   mail        every renewed request's email with its PDF in the sink, once to the requester and once to the holder
 *
 * Prints: the run's wall time and letters per second (whole run, and its middle 80 %), the dashboard's p50/p95 idle and
 * during the run and their ratio, how full the run kept the letters queue (progress.waiting against
 * RENEWAL_MAX_WAITING), the peak RSS of the API, the worker and its Chromium, CPU-s per part (API, worker, Chromium,
 * Temporal, the database's sessions, the mail sink, this process, other programs), then ../shared/calibrate.mjs.
 * Targets (the issue): 2,000 renewed in ≤ 5 minutes (≥ 7 letters a second, signed, emailed) with the dashboard's first
 * page p95 ≤ 2× its idle p95. Exits 1 when a target is missed (not with `--smoke`), or when a renewal failed, or an
 * email is missing, doubled or without its PDF. RENEWAL_PER_SECOND and RENEWAL_MAX_WAITING pass through to the worker.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { API_PROCESS_ENV } from '../config/api-process';
import { loadRenewalSettings } from '../config/renewal-config';
import { dropDatabase, dropOrphanedDatabases } from '../db/database';
import { prepareDatabase } from '../db/prepare-database';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER } from '../db/seed-data';
import { ensureTemporalServer, freePort, type TemporalServerHandle } from '../devtools/temporal/dev-server';
import {
  adminGroupOf, ALL_STATUSES, DASHBOARD_FIELDS, DEFAULT_OFFICE_TIME_ZONE, ISSUED_LETTER_KIND_LABELS, newVerificationCode, STATUS,
  VERIFICATION_CODE_RANDOM_BYTES, type IssuedLetterFacts, type RequestStatus,
} from '../domain';
import { startApiProcess, type ApiProcess } from './api-process';
import { calibration, descendants, RESULTS_DIR, runBench, stopLater, targetsFailTheRun } from './lifecycle';
import { startMailSinkProcess, type MailSinkProcess, type MailSummary } from './mail-sink-process';
import { hwmOf } from './memory/peak-sampler';
import { rssOf } from './process-profile';
import { startWorkerProcess, type WorkerProcess } from './worker-process';

const TARGETS = { count: 2000, wallMs: 5 * 60_000, perSecond: 7, dashboardRatio: 2 };
const USAGE = 'usage: npm run bench:renewals -- [--n N (2000)] [--warmup W (10)] [--samples S (100)] [--background B (2000)] [--pause MS (100)]';

function parseArgs(argv: string[]) {
  const options = { n: 2000, warmup: 10, samples: 100, background: 2000, pause: 100 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--smoke') continue; // bench/lifecycle.ts reads it
    const [flag, inline] = argv[i].split('=', 2) as [string, string | undefined];
    const key = flag.replace(/^--/, '');
    if (!(key in options) || !flag.startsWith('--')) { console.error(`unknown argument "${argv[i]}"\n${USAGE}`); process.exit(2); }
    const value = Number(inline ?? argv[++i]);
    if (!Number.isInteger(value) || value < (key === 'n' || key === 'samples' ? 1 : 0)) { console.error(`--${key} needs a whole number\n${USAGE}`); process.exit(2); }
    (options as Record<string, number>)[key] = value;
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error(`[bench:renewals] Node ${process.version}: run it with  npm run bench:renewals  (Node 24 from node_modules/.bin)`);
  process.exit(2);
}
const log = (line: string) => console.log(`[bench:renewals] ${line}`);
const warn = (line: string) => console.error(`[bench:renewals] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (x: number) => Math.round(x * 10) / 10;
const mib = (bytes: number) => `${Math.round(bytes / 1048576)} MiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const loadAverage = () => os.loadavg().map((x) => Math.round(x * 100) / 100);
/** Rows older than the portal's own numbers (a new database's counter starts at 50001), so no submit meets them. */
const FIRST_NUMBER = 7_000_000;
const HOLDER_DOMAIN = 'holder.bench.example';
const STALL_MS = 90_000;

function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0);
  return { n: sorted.length, p50: at(50), p95: at(95), max: at(100) };
}

/** tsx's esbuild service, a child of every process that transforms code (the worker's): not Chromium. */
const isEsbuild = (pid: number) => { try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('esbuild'); } catch { return false; } };
/** The worker's Chromium lanes and their helpers: the worker's descendants but esbuild. */
const chromiumPids = (workerPid: number) => descendants(workerPid).filter((pid) => !isEsbuild(pid));

// ---------------------------------------------------------------------------------------------------------------
// CPU by part, from /proc (utime + stime; cutime + cstime too, so reaped Chromium helpers count)

const TICK_MS = 10; // USER_HZ = 100 on Linux
interface Parts { api: number; worker: number; chromium: number; temporal: number; sink: number; postgres: number; bench: number; machine: number }

function cpuByPart(pids: { api: number; worker: number; temporal: number | null; sink: number }, databaseName: string): Parts {
  const parent = new Map<number, number>();
  const own = new Map<number, number>();
  const withChildren = new Map<number, number>();
  let postgres = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
      parent.set(Number(entry), f[1]);
      own.set(Number(entry), (f[11] + f[12]) * TICK_MS);
      withChildren.set(Number(entry), (f[11] + f[12] + f[13] + f[14]) * TICK_MS);
      // the database's sessions: "postgres: <user> <database> <client> <state>"
      if (stat.includes('(postgres)') && fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(` ${databaseName} `)) postgres += (f[11] + f[12]) * TICK_MS;
    } catch { /* gone, or not ours to read */ }
  }
  const below = (pid: number, root: number) => { let p = parent.get(pid); while (p && p !== root && p !== 1) p = parent.get(p); return p === root; };
  const tree = (root: number | null) => (root === null ? 0 : [...withChildren.keys()].filter((pid) => pid === root || below(pid, root)).reduce((sum, pid) => sum + (pid === root ? withChildren.get(pid)! : own.get(pid)!), 0));
  const chromium = [...own.keys()].filter((pid) => below(pid, pids.worker) && !isEsbuild(pid)).reduce((sum, pid) => sum + withChildren.get(pid)!, 0);
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  const self = process.cpuUsage();
  return {
    api: tree(pids.api), worker: own.get(pids.worker) ?? 0, chromium, temporal: tree(pids.temporal), sink: tree(pids.sink), postgres,
    bench: (self.user + self.system) / 1000, machine: (user + nice + system + irq + softirq + (steal ?? 0)) * TICK_MS,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding: set-based SQL

/** The policy year in force today, as the letters show it. */
interface PolicyRow { id: number; start_date: Date; end_date: Date; policy_number: string; limit_claim: string; annual_aggregate: string }

const SUBTYPES = [
  { label: 'Auto Liability: New/Leased Fleet Vehicle', coverageLine: 'Automobile Liability', activity: 'Vehicle: 2024 Ford Transit; Owning department: Facilities' },
  { label: 'Property', coverageLine: 'Property and General Liability', activity: 'Property: Equipment; Equipment: MRI scanner; Lessor: GE Capital' },
  { label: 'Contracts/Lease', coverageLine: 'General and Professional Liability', activity: 'Contract number: C-BENCH' },
];

/**
 * `count` Approved certificate requests numbered from FIRST_NUMBER + 1, subtypes in turn (g % 3: a fleet vehicle in
 * service, a property certificate, a standing contract: all renew by the rules), each with its current certificate
 * issued 150 days ago for the current policy year; and `background` credentialing requests for the dashboard's
 * tables. Answers the renewal requests' ids in number order.
 */
async function seed(client: pg.Client, count: number, background: number): Promise<number[]> {
  const { rows: [requester] } = await client.query<{ id: number; email: string; first_name: string; last_name: string }>(
    'select id, email, first_name, last_name from users where email = $1', [DEV_INTERNAL_REQUESTER.email]);
  if (!requester) throw new Error(`the development requester ${DEV_INTERNAL_REQUESTER.email} is not seeded`);
  const { rows: [year] } = await client.query<PolicyRow>(
    'select id, start_date, end_date, policy_number, limit_claim, annual_aggregate from policies where start_date <= now() and end_date >= now() order by start_date desc limit 1');
  if (!year) throw new Error('no policy year in force today');
  const { rows: [next] } = await client.query('select id from policies where start_date > $1 order by start_date limit 1', [year.end_date]);
  if (!next) throw new Error('no policy year after the current one: a run would refuse to start');

  await client.query('begin');
  const { rows } = await client.query<{ id: number; g: number }>(`
    insert into requests (created_at, updated_at, status_changed_at, request_number, request_type, certificate_type, auto_type, contract_lease_type,
      status, source, submit_date, completed_date, requester_id, requester_name, requester_last_name, requester_email, requester_company,
      employer_type, verified, last_name, first_name, certificate_holder, certificate_holder_address, certificate_holder_email, internal_contact,
      vehicle_year, vehicle_make, vehicle_model, vehicle_id_number, vehicle_location, vehicle_owning_dept, vehicle_type,
      reason, reason_equipment, new_lease_or_equip, lessor_name, loan_number, contract_number, version)
    select now() - interval '160 days', now() - interval '150 days', now() - interval '150 days', ${FIRST_NUMBER} + g, 'certificate',
      (array['Auto Liability', 'Property', 'Contracts/Lease'])[1 + g % 3], case when g % 3 = 0 then 'New/Leased Fleet Vehicle' end,
      case when g % 3 = 2 then 'Contract' end,
      'Approved', 'internal', now() - interval '155 days', now() - interval '150 days', $1, $2, $3, $4, 'OHSU',
      'internal', true, $3, $5, 'Holder ' || g || ' Inc.', g || ' Main St, Portland, OR 97201', 'certificates' || g || '@${HOLDER_DOMAIN}', 'Bench 503-494-0000',
      case when g % 3 = 0 then '2024' end, case when g % 3 = 0 then 'Ford' end, case when g % 3 = 0 then 'Transit' end,
      case when g % 3 = 0 then upper(substr(md5(g::text), 1, 17)) end, case when g % 3 = 0 then 'Main Campus' end,
      case when g % 3 = 0 then 'Facilities' end, case when g % 3 = 0 then 'Passenger Van' end,
      case when g % 3 = 1 then 'Equipment' end, case when g % 3 = 1 then 'MRI scanner' end, case when g % 3 = 1 then 'Yes' end,
      case when g % 3 = 1 then 'GE Capital' end, case when g % 3 = 1 then 'LN-' || g end, case when g % 3 = 2 then 'C-' || g end, 1
    from generate_series(1, $6::int) as g
    returning id, request_number - ${FIRST_NUMBER} as g`,
  [requester.id, `${requester.first_name} ${requester.last_name}`, requester.last_name, requester.email, requester.first_name, count]);
  rows.sort((a, b) => a.g - b.g);

  // Their current certificates: the facts the letter was printed with (activities/effects/issued-letters.ts
  // `issuedLetterFacts`); coverage_ends_on is computed from them (the last policy's expiration).
  const iso = (d: Date) => d.toISOString();
  const day = (d: Date) => iso(d).slice(0, 10);
  const issued = new Date(Date.now() - 150 * 86_400_000);
  const codes = new Set<string>();
  while (codes.size < rows.length) codes.add(newVerificationCode(randomBytes(VERIFICATION_CODE_RANDOM_BYTES)));
  const facts = rows.map((row): IssuedLetterFacts => {
    const subtype = SUBTYPES[row.g % 3];
    return {
      kind: 'certificate', kindLabel: ISSUED_LETTER_KIND_LABELS.certificate, subtypeLabel: subtype.label, certificateHolder: `Holder ${row.g} Inc.`,
      insuredActivity: subtype.activity, coveragePeriod: { from: day(year.start_date), to: day(year.end_date) }, coverageLine: subtype.coverageLine,
      policies: [{ policyNumber: year.policy_number, effective: iso(year.start_date), expiration: iso(year.end_date), eachClaim: year.limit_claim, annualAggregate: year.annual_aggregate }],
      dateIssued: day(issued), timeZone: DEFAULT_OFFICE_TIME_ZONE,
    };
  });
  await client.query(`
    insert into issued_letters (request_id, letter_kind, verification_code, sha256, idempotency_key, issued_at, facts, created_at, updated_at)
    select x.request_id, 'certificate', x.code, sha256(convert_to(x.code, 'UTF8')), 'bench-renewals:seed:' || x.request_id, $4, x.facts::jsonb, $4, $4
    from unnest($1::int[], $2::text[], $3::text[]) as x(request_id, code, facts)`,
  [rows.map((r) => r.id), [...codes], facts.map((f) => JSON.stringify(f)), issued]);

  // The dashboard's tables: credentialing requests of the development requester, by status (none waiting on a
  // cause the wake-up sweep would look at).
  if (background > 0) {
    await client.query(`
      insert into requests (created_at, updated_at, status_changed_at, request_number, request_type, status, source, submit_date, completed_date,
        requester_id, requester_name, requester_last_name, requester_email, requester_company, employer_type, verified,
        last_name, first_name, birth_date, date_from, date_to, provider_type, reason, version)
      select now() - (g % 300) * interval '1 day', now() - (g % 300) * interval '1 day' + interval '1 hour', now() - (g % 300) * interval '1 day',
        ${FIRST_NUMBER + count} + g, 'credentialing', s.status, 'internal',
        case when s.status <> 'Draft' then now() - (g % 300) * interval '1 day' end,
        case when s.status in ('Approved', 'Denied', 'Closed') then now() - (g % 300) * interval '1 day' + interval '1 hour' end,
        $1, $2, $3, $4, 'OHSU', 'internal', s.status = 'Approved', 'Clinician' || g, 'Avery', timestamptz '1980-04-12 11:00+00',
        timestamptz '2020-01-01 11:00+00', timestamptz '2024-12-31 11:00+00', 'Current Employee/Fellow/Resident', 'Future employment', 1
      from generate_series(1, $5::int) as g
      cross join lateral (select (array['Submitted', 'Submitted', 'Submitted', 'Pending Additional Information', 'Approved', 'Approved', 'Approved',
        'Denied', 'Closed', 'Draft'])[1 + g % 10] as status) s`,
    [requester.id, `${requester.first_name} ${requester.last_name}`, requester.last_name, requester.email, background]);
  }
  await client.query('commit');
  await client.query('vacuum analyze requests');
  await client.query('vacuum analyze issued_letters');
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------------------------
// The Admin Dashboard's first page, as ui/src/features/dashboard/components/admin-dashboard.tsx loads it

const PAGE_SIZE = 15; // ui/src/features/dashboard/api/get-requests.ts
/** Status headings in lifecycle order, as the page groups them. */
const ADMIN_GROUP_ORDER = [...new Set(ALL_STATUSES.filter((s) => s !== STATUS.draft).map(adminGroupOf))];
interface QueueCount { requestType: string; status: RequestStatus; count: number }

/** The first tab's (credentialing) groups with rows: each loads one page of GET /requests. */
function firstTabGroups(counts: QueueCount[]): RequestStatus[][] {
  const open = counts.filter((row) => row.requestType === 'credentialing' && row.status !== STATUS.draft && row.count > 0);
  return ADMIN_GROUP_ORDER.map((name) => open.filter((row) => adminGroupOf(row.status) === name).map((row) => row.status)).filter((statuses) => statuses.length > 0);
}

/** GET /requests's query for one group (ui `requestListQuery`, serialized as its `toQueryString`). */
function groupPageQuery(statuses: RequestStatus[]): string {
  const parts = ['requestType=credentialing'];
  if (statuses.length === 1) parts.push(`status=${encodeURIComponent(statuses[0])}`);
  else statuses.forEach((status, i) => parts.push(`$or[${i}][status]=${encodeURIComponent(status)}`));
  DASHBOARD_FIELDS.forEach((field, i) => parts.push(`$select[${i}]=${field}`));
  parts.push('$sort[updatedAt]=-1', `$limit=${PAGE_SIZE}`, '$skip=0');
  return parts.join('&');
}

class Api {
  constructor(readonly url: string, readonly token: string) {}
  async call<T = Record<string, unknown>>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/api/v1${route}`, {
      method, headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${route.slice(0, 120)} answered ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  }
}

/** One load of the first page: the dashboard call, then its tables at once. Answers both times (ms). */
async function loadFirstPage(api: Api): Promise<{ pageMs: number; dashboardMs: number }> {
  const started = performance.now();
  const dashboard = await api.call<{ queueCounts: QueueCount[] }>('GET', `/admin-dashboard?$limit=${PAGE_SIZE}`);
  const dashboardMs = performance.now() - started;
  await Promise.all(firstTabGroups(dashboard.queueCounts).map((statuses) => api.call('GET', `/requests?${groupPageQuery(statuses)}`)));
  return { pageMs: performance.now() - started, dashboardMs };
}

// ---------------------------------------------------------------------------------------------------------------

interface Progress { total: number; done: number; waiting: number; failed: number; remaining: number; notRenewed: number; percent: number }
interface RunRecord { id: number; state: string; progress: Progress }

async function main(): Promise<number> {
  const startedAt = new Date();
  const cpus = os.cpus();
  const loadAtStart = loadAverage();
  log(`Node ${process.version}, ${cpus.length} cores (${cpus[0]?.model.trim() ?? '?'}), load average ${loadAtStart.join(' ')}`);
  const calibratedBefore = calibration();
  if (calibratedBefore) log(`calibrate before: ${calibratedBefore}`);
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
  const settings = loadRenewalSettings(process.env);

  // The parts: database, Temporal, SMTP sink (allSettled: what started is registered for the cleanup before a throw).
  const serverUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  serverUrl.pathname = '/postgres';
  serverUrl.search = '';
  const dbUrl = new URL(serverUrl);
  const databaseName = `coi_bench_renewals_${process.pid}`;
  dbUrl.pathname = `/${databaseName}`;
  for (const name of await dropOrphanedDatabases(serverUrl.toString(), 'coi_bench_renewals_')) log(`dropped stale database ${name}`);
  await dropDatabase(dbUrl.toString()).catch(() => {});
  stopLater('drop the database', () => dropDatabase(dbUrl.toString()));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-bench-renewals-'));
  stopLater('remove the data folder', () => rm(dataDir, { recursive: true, force: true }));
  const address = `127.0.0.1:${await freePort()}`;
  const [prepared, temporalStarted, sinkStarted] = await Promise.allSettled([
    prepareDatabase(dbUrl.toString()),
    ensureTemporalServer({ address, log: (line) => { if (/msg=|^\[temporal\] (CLI|Server:|UI:|Metrics:)/.test(line)) return; log(line); } }),
    startMailSinkProcess(),
  ]);
  if (temporalStarted.status === 'fulfilled') { const server = temporalStarted.value; stopLater('stop the Temporal dev server', () => server.stop()); }
  if (sinkStarted.status === 'fulfilled') { const sink = sinkStarted.value; stopLater('close the SMTP sink', () => sink.close()); }
  for (const settled of [prepared, temporalStarted, sinkStarted]) if (settled.status === 'rejected') throw settled.reason;
  const temporal = (temporalStarted as PromiseFulfilledResult<TemporalServerHandle>).value;
  const sink = (sinkStarted as PromiseFulfilledResult<MailSinkProcess>).value;
  if (!temporal.started) throw new Error(`something already listens on ${address}`);

  const client = new pg.Client({ connectionString: dbUrl.toString() });
  await client.connect();
  stopLater('close the bench\'s database connection', () => client.end());
  const seedStarted = performance.now();
  const ids = await seed(client, options.warmup + options.n, options.background);
  log(`seeded ${ids.length} Approved certificate requests with their current certificates and ${options.background} credentialing requests `
    + `in ${seconds(performance.now() - seedStarted)} (database ${databaseName})`);

  // Mail: every message, by request number and recipient.
  const mails = new Map<number, MailSummary[]>();
  let lastMailAt = 0;
  const unsubscribe = sink.subscribe((message) => {
    const m = /^Request (\d+): certificate renewed$/.exec(message.subject);
    if (!m) return;
    mails.set(Number(m[1]), [...(mails.get(Number(m[1])) ?? []), message]);
    lastMailAt = performance.now();
  });
  stopLater('stop listening to the sink', unsubscribe);

  // The worker, then the API, each its own process.
  const portalEnv: NodeJS.ProcessEnv = {
    ...process.env, DATABASE_URL: dbUrl.toString(), TEMPORAL_ADDRESS: address, TEMPORAL_TASK_QUEUE: `renewals-${randomBytes(4).toString('hex')}`,
    SMTP_URL: sink.url, DATA_DIR: dataDir, PORT: '0', ...API_PROCESS_ENV,
  };
  const workerStarted = performance.now();
  // minutes: on a 2-core machine shared with test runs, bundling the workflows alone can take two
  const worker: WorkerProcess = await startWorkerProcess(portalEnv, warn, 600_000);
  stopLater('stop the worker process', () => worker.stop());
  log(`worker process ${worker.pid} polling after ${seconds(performance.now() - workerStarted)} `
    + `(RENEWAL_PER_SECOND ${settings.perSecond}, RENEWAL_MAX_WAITING ${settings.maxWaiting})`);
  const apiProcess: ApiProcess = await startApiProcess(portalEnv, log);
  stopLater('stop the API process', () => apiProcess.stop());
  const { rows: [admin] } = await client.query<{ id: number; session_version: number }>('select id, session_version from users where email = $1', [DEV_ADMIN.email]);
  const api = new Api(apiProcess.url, apiProcess.token({ id: admin.id, sessionVersion: admin.session_version }));
  log(`API process ${apiProcess.pid} on ${apiProcess.url}`);

  // Memory: the API's and the worker's RSS every 250 ms (and the kernel's high-water marks), Chromium's processes once
  // a second (finding them reads all of /proc).
  const peaks = { api: 0, worker: 0, chromium: 0 };
  let ticks = 0;
  const sampleMemory = () => {
    peaks.api = Math.max(peaks.api, apiProcess.rssBytes());
    peaks.worker = Math.max(peaks.worker, worker.rssBytes());
    if (ticks++ % 4 === 0) peaks.chromium = Math.max(peaks.chromium, chromiumPids(worker.pid).reduce((sum, pid) => sum + rssOf(pid), 0));
  };
  const memoryTimer = setInterval(sampleMemory, 250);
  stopLater('stop sampling memory', () => clearInterval(memoryTimer));

  const candidates = async () => api.call<{ policyYear: { id: number; label: string } | null; window: { from: string; to: string } | null; refusal: string | null; summary: Record<string, number> }>('GET', '/renewals/candidates');
  const startRun = async (requestIds?: number[]) => {
    const list = await candidates();
    if (list.refusal || !list.policyYear || !list.window) throw new Error(`the candidates refuse a run: ${list.refusal}`);
    return { list, run: await api.call<RunRecord>('POST', '/renewal-runs', { policyYearId: list.policyYear.id, mode: 'renew', from: list.window.from, to: list.window.to, ...(requestIds ? { requestIds } : {}) }) };
  };
  const timeline: Array<{ atMs: number; done: number; waiting: number; failed: number }> = [];
  /** Polls the run every second until done + failed == total and it finished; throws when nothing moves for STALL_MS. */
  const untilDone = async (runId: number, started: number, record: boolean): Promise<{ run: RunRecord; doneAtMs: number }> => {
    let seen = -1;
    let movedAt = performance.now();
    for (;;) {
      const run = await api.call<RunRecord>('GET', `/renewal-runs/${runId}`);
      const p = run.progress;
      const now = performance.now();
      if (record) timeline.push({ atMs: now - started, done: p.done, waiting: p.waiting, failed: p.failed });
      if (p.done + p.failed + p.notRenewed === p.total && (run.state === 'finished' || run.state === 'cancelled')) return { run, doneAtMs: now - started };
      if (p.done + p.failed !== seen) { seen = p.done + p.failed; movedAt = now; }
      if (now - movedAt > STALL_MS) throw new Error(`run ${runId}: no progress for ${STALL_MS / 1000} s (${JSON.stringify(p)}, state ${run.state})`);
      await sleep(Math.max(0, 1000 - (performance.now() - now)));
    }
  };

  // Warm-up: the first requests' workflows, Chromium's first letters, the first SMTP connections.
  if (options.warmup > 0) {
    const warmStarted = performance.now();
    const { run } = await startRun(ids.slice(0, options.warmup));
    await untilDone(run.id, warmStarted, false);
    log(`warm-up: ${options.warmup} renewed in ${seconds(performance.now() - warmStarted)} (run ${run.id}, not counted)`);
  }

  // Idle: the dashboard alone (after five loads not counted: the API's first calls compile its code).
  for (let i = 0; i < 5; i++) await loadFirstPage(api);
  const idle = { page: [] as number[], dashboard: [] as number[] };
  const idleLoad = loadAverage();
  for (let i = 0; i < options.samples; i++) {
    const t = await loadFirstPage(api);
    idle.page.push(t.pageMs);
    idle.dashboard.push(t.dashboardMs);
    await sleep(options.pause);
  }
  const idlePage = summarize(idle.page);
  log(`idle: dashboard first page n=${idlePage.n} p50 ${idlePage.p50} ms p95 ${idlePage.p95} ms (load ${idleLoad.join(' ')})`);

  // The run: every renewable certificate left, with the dashboard loaded the same way until the last letter is out.
  const during = { page: [] as number[], dashboard: [] as number[] };
  let running = true;
  const dashboardLoop = (async () => {
    while (running) {
      const t = await loadFirstPage(api);
      if (!running) break; // a load that ends after the run is not the run's
      during.page.push(t.pageMs);
      during.dashboard.push(t.dashboardMs);
      await sleep(options.pause);
    }
  })();
  const pids = { api: apiProcess.pid, worker: worker.pid, temporal: temporal.process?.pid ?? null, sink: sink.pid };
  const runLoad = loadAverage();
  const cpuBefore = cpuByPart(pids, databaseName);
  const runStarted = performance.now();
  const mailsBefore = [...mails.values()].reduce((sum, list) => sum + list.length, 0);
  let result: { run: RunRecord; doneAtMs: number };
  let listed: Awaited<ReturnType<typeof startRun>>['list'];
  try {
    const started = await startRun();
    listed = started.list;
    log(`run ${started.run.id} started: ${started.run.progress.total} certificates for ${listed.policyYear!.label} `
      + `(window ${listed.window!.from} – ${listed.window!.to}; candidates ${JSON.stringify(listed.summary)}), POST answered in ${seconds(performance.now() - runStarted)}`);
    result = await untilDone(started.run.id, runStarted, true);
  } finally {
    running = false;
    await dashboardLoop.catch((error) => warn(`dashboard load failed: ${(error as Error).message}`));
  }
  const cpuAfter = cpuByPart(pids, databaseName);
  const runEndLoad = loadAverage();
  sampleMemory();
  const { run, doneAtMs } = result;
  const total = run.progress.total;

  // Mail: each renewed request, one message to the requester and one to the holder, each with its PDF.
  const expectedMails = ids.length * 2;
  const mailCount = () => [...mails.values()].reduce((sum, list) => sum + list.length, 0);
  const mailWaitStarted = performance.now();
  while (mailCount() < expectedMails && performance.now() - mailWaitStarted < 30_000) await sleep(200);
  await sleep(2000); // a late duplicate would arrive here
  const lastMailMs = lastMailAt - runStarted;
  const problems: string[] = [];
  if (run.progress.failed) problems.push(`${run.progress.failed} renewals failed`);
  if (total !== options.n) problems.push(`the run took ${total} certificates (expected ${options.n})`);
  const { rows: numbered } = await client.query<{ request_number: number }>('select request_number from requests where id = any($1::int[]) order by request_number', [ids]);
  const requesterEmail = DEV_INTERNAL_REQUESTER.email.toLowerCase();
  for (const { request_number: number } of numbered) {
    const got = mails.get(number) ?? [];
    const to = got.flatMap((m) => m.to.map((a) => a.toLowerCase())).sort();
    const holder = `certificates${number - FIRST_NUMBER}@${HOLDER_DOMAIN}`;
    if (to.length !== 2 || !to.includes(requesterEmail) || !to.includes(holder)) problems.push(`request ${number}: renewal emails to [${to.join(', ')}] (expected one each to ${requesterEmail} and ${holder})`);
    if (got.some((m) => !m.attachments.some((a) => a.contentType === 'application/pdf' && Buffer.from(a.content.subarray(0, 5)).toString('latin1') === '%PDF-'))) {
      problems.push(`request ${number}: a renewal email without its PDF`);
    }
  }
  const { rows: [letters] } = await client.query<{ renewed: number; current: number; signed: number }>(`
    select count(*) filter (where idempotency_key like 'effect:renew:%')::int as renewed,
      count(*) filter (where issued_at is not null and superseded_at is null and revoked_at is null)::int as current,
      count(*) filter (where idempotency_key like 'effect:renew:%' and issued_at is not null and sha256 is not null)::int as signed
    from issued_letters where request_id = any($1::int[])`, [ids]);
  if (letters.renewed !== ids.length || letters.current !== ids.length) problems.push(`issued letters: ${letters.renewed} renewed, ${letters.current} current (expected ${ids.length} each)`);

  // Figures.
  const wallS = doneAtMs / 1000;
  const perSecond = total / wallS;
  const at = (share: number) => timeline.find((t) => t.done >= share * total)?.atMs ?? doneAtMs;
  const middle = total >= 10 ? (0.8 * total) / ((at(0.9) - at(0.1)) / 1000) : perSecond;
  const firstLetterMs = timeline.find((t) => t.done > 0)?.atMs ?? doneAtMs;
  const waitingMean = timeline.length ? timeline.reduce((sum, t) => sum + t.waiting, 0) / timeline.length : 0;
  const atMax = timeline.filter((t) => t.waiting >= settings.maxWaiting - 1).length;
  const idleP95 = summarize(idle.page).p95;
  const duringPage = summarize(during.page);
  const ratio = duringPage.p95 / idleP95;
  const cpu = (key: keyof Parts) => round((cpuAfter[key] - cpuBefore[key]) / 1000);
  const ours = (['api', 'worker', 'chromium', 'temporal', 'sink', 'postgres', 'bench'] as const).reduce((sum, key) => sum + cpuAfter[key] - cpuBefore[key], 0);
  const others = Math.max(0, cpuAfter.machine - cpuBefore.machine - ours);
  const perLetter = (key: keyof Parts) => round((cpuAfter[key] - cpuBefore[key]) / total);
  // What the machine could carry if the renewal had it to itself (no dashboard, no client, no mail server, no others).
  const portalPerLetter = (['worker', 'chromium', 'temporal', 'postgres'] as const).reduce((sum, key) => sum + cpuAfter[key] - cpuBefore[key], 0) / total;
  const capacity = (1000 * cpus.length) / portalPerLetter;
  const apiHwm = Math.max(apiProcess.hwmBytes(), peaks.api);
  const workerHwm = Math.max(hwmOf(worker.pid), peaks.worker);
  const calibratedAfter = calibration();
  const met = {
    wall: total >= TARGETS.count ? doneAtMs <= TARGETS.wallMs : null,
    perSecond: perSecond >= TARGETS.perSecond,
    dashboard: ratio <= TARGETS.dashboardRatio,
  };
  const yes = (ok: boolean | null) => (ok === null ? `n/a (${total} < ${TARGETS.count})` : ok ? 'met' : 'MISSED');

  console.log('');
  console.log(`Renewals benchmark: ${total} certificates (Fleet, Property, Contract), ${cpus.length} cores, Node ${process.version}; `
    + `RENEWAL_PER_SECOND ${settings.perSecond}, RENEWAL_MAX_WAITING ${settings.maxWaiting}; load average ${runLoad.join(' ')} at the start of the run, ${runEndLoad.join(' ')} at its end`);
  console.log(`run: ${total} renewed (signed letter + email) in ${seconds(doneAtMs)} = ${perSecond.toFixed(2)} letters/s; middle 80 % ${middle.toFixed(2)}/s; `
    + `first letter out after ${seconds(firstLetterMs)}; last email received ${seconds(lastMailMs)} after the start; failed ${run.progress.failed}`);
  console.log(`letters queue: run's letters waiting mean ${waitingMean.toFixed(1)} of ${settings.maxWaiting} (at the limit in ${atMax} of ${timeline.length} polls)`);
  console.log(`dashboard first page (GET /admin-dashboard + its first tab's pages): idle n=${idle.page.length} p50 ${summarize(idle.page).p50} ms p95 ${idleP95} ms; `
    + `during the run n=${duringPage.n} p50 ${duringPage.p50} ms p95 ${duringPage.p95} ms max ${duringPage.max} ms; ratio ${ratio.toFixed(2)}×`);
  console.log(`  of which GET /admin-dashboard: idle p95 ${summarize(idle.dashboard).p95} ms, during p95 ${summarize(during.dashboard).p95} ms`);
  console.log(`memory (peak RSS): API process ${mib(apiHwm)}, worker process ${mib(workerHwm)}, its Chromium ${mib(peaks.chromium)}`);
  console.log(`CPU-s during the run: API ${cpu('api')}, worker ${cpu('worker')}, Chromium ${cpu('chromium')}, Temporal ${cpu('temporal')}, PostgreSQL sessions ${cpu('postgres')}, `
    + `mail sink ${cpu('sink')}, bench ${cpu('bench')}, other programs ${round(others / 1000)} of ${round((doneAtMs * cpus.length) / 1000)}`);
  console.log(`CPU-ms per letter: API ${perLetter('api')}, worker ${perLetter('worker')}, Chromium ${perLetter('chromium')}, Temporal ${perLetter('temporal')}, PostgreSQL ${perLetter('postgres')}; `
    + `the renewal's own parts (worker, Chromium, Temporal, PostgreSQL) ${round(portalPerLetter)}: at most ${capacity.toFixed(1)} letters/s on ${cpus.length} cores with nothing else running`);
  console.log(`emails: ${mailCount() - mailsBefore} renewal emails during the run, ${mailCount()} in all (expected ${expectedMails}: requester and holder of each); `
    + `issued letters: ${letters.renewed} renewed, ${letters.signed} issued with their signed bytes' hash`);
  console.log(`targets: ${TARGETS.count} in ≤ ${TARGETS.wallMs / 60_000} min: ${yes(met.wall)}; ≥ ${TARGETS.perSecond} letters/s: ${yes(met.perSecond)}; `
    + `dashboard p95 ≤ ${TARGETS.dashboardRatio}× idle: ${yes(met.dashboard)}`);
  if (calibratedBefore || calibratedAfter) console.log(`calibrate: ${calibratedBefore ?? '?'} before, ${calibratedAfter ?? '?'} after`);

  const report = {
    startedAt: startedAt.toISOString(), options, settings, targets: TARGETS, met,
    machine: { cores: cpus.length, cpuModel: cpus[0]?.model.trim() ?? null, node: process.version, loadAtStart, runLoad, runEndLoad, calibratedBefore, calibratedAfter },
    run: { total, wallMs: Math.round(doneAtMs), perSecond: round(perSecond), middlePerSecond: round(middle), portalCpuMsPerLetter: round(portalPerLetter), capacityPerSecond: round(capacity), firstLetterMs: Math.round(firstLetterMs), lastMailMs: Math.round(lastMailMs), progress: run.progress },
    dashboard: { idle: summarize(idle.page), during: duringPage, ratio: round(ratio * 100) / 100, idleDashboardCall: summarize(idle.dashboard), duringDashboardCall: summarize(during.dashboard) },
    memoryBytes: { apiPeak: apiHwm, workerPeak: workerHwm, chromiumPeak: peaks.chromium },
    cpuSeconds: { api: cpu('api'), worker: cpu('worker'), chromium: cpu('chromium'), temporal: cpu('temporal'), postgres: cpu('postgres'), sink: cpu('sink'), bench: cpu('bench'), others: round(others / 1000) },
    timeline, problems,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `renewals-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`results: ${path.relative(process.cwd(), file)}`);
  for (const p of problems.slice(0, 20)) warn(`problem: ${p}`);
  if (problems.length) { log(`FAILED: ${problems.length} problems`); return 1; }
  log('OK: every certificate renewed once, its letter signed and emailed to the requester and the holder');
  const missed = Object.values(met).some((ok) => ok === false);
  return missed && targetsFailTheRun ? 1 : 0;
}

runBench('bench:renewals', main);
