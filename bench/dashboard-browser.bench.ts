/**
 * `npm run bench:browser [-- --loads 10 --small 3000 --no-build]`: the dashboard in Chromium at 100,000
 * requests. On the kept database of the lists benchmark (`coi_bench_lists`, filled by `npm run seed:requests`;
 * LISTS_BENCH_DATABASE_URL to change it), it
 *
 *   1. builds the UI (`vite build`, production) and measures its initial JS: the entry chunk and its static imports
 *      from Vite's manifest, gzip (ui/initial-js.ts);                                       target ≤ 150 KiB
 *   2. starts the API in this process on a free port, serving that build (no Temporal server: the dashboards do not
 *      use it; the client connects lazily);
 *   3. for an administrator (the development one through the login page when seeded, else the first administrator)
 *      and the requester with the most requests, in Chromium (those two signed in with a session token the API
 *      signs, as its login would: the seeded accounts have no password known here),
 *      in Chromium: one cold load of `/`, then --loads WARM loads (a new navigation with the HTTP cache and the
 *      connection warm). Each load is timed in the page from navigation start until the first table of the active
 *      tab has rows AND the page responds to input: a requestAnimationFrame after the rows appear, then a task
 *      (the next input event would run then).                                                 target p95 ≤ 1 s
 *      Also reported per load: LCP, long tasks (count, total) from the Performance API, and the CPU time of
 *      Chromium (all its processes) and of this process (the API + PostgreSQL client) divided by the loads.
 *
 * `--small N` instead fills (once) and uses a small kept database `coi_bench_browser_small` with N requests of the
 * development requester: for trying the bench without the 100,000-request database.
 * `--no-build` measures the UI already built in ui/dist instead of building it (the suite's smoke run, which must not
 * rebuild the files its e2e tests serve). Exits 1 when a load fails or a target is missed (`--smoke`: not for a
 * target), 2 on a bad flag or a missing database. Writes bench/results/browser-<time>.json.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { descendants, RESULTS_DIR, runBench, stopLater, targetsFailTheRun } from './lifecycle';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import { signSessionToken } from '../api/plugins/auth';
import { prepareDatabase } from '../db/prepare-database';
import { DEV_ADMIN, DEV_REQUESTER } from '../db/seed-data';
import { INITIAL_JS_BUDGET_BYTES, kib, measureInitialJs, UI_DIST_DIR } from '../ui/initial-js';
import { startPortalInProcess } from '../devtools/portal-in-process';
import { UI_BROWSER_PATH } from '../devtools/ui-browser';

const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => console.log(`[bench:browser] ${line}`);
const TOKEN_KEY = 'feathers-jwt'; // ui/src/lib/token-storage.ts
const TARGET_MS = 1000;

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const LOADS = Number(flag('loads') ?? 10);
const SMALL = flag('small') === undefined ? null : Number(flag('small'));
/** `--no-build`: measure the UI already built in ui/dist (the suite's smoke run: `npm test` built it, and e2e tests serve it). */
const BUILD = !process.argv.includes('--no-build');
// Each load re-authenticates its token (POST /authentication, strategy jwt), which is not limited for a token the
// portal signed: the bound only keeps a run short.
const MAX_LOADS = 100;
if (!Number.isInteger(LOADS) || LOADS < 1 || LOADS > MAX_LOADS || (SMALL !== null && !(SMALL > 0))) {
  console.error(`usage: npm run bench:browser [-- --loads N (1..${MAX_LOADS})] [--small N] [--no-build]`);
  process.exit(2);
}
if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error(`[bench:browser] Node ${process.version}: run it with  npm run bench:browser  (Node 24 from node_modules/.bin)`);
  process.exit(2);
}

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseUrl = SMALL !== null
  ? Object.assign(new URL(serverUrl), { pathname: '/coi_bench_browser_small' }).toString()
  : process.env.LISTS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/coi_bench_lists';

// ---------------------------------------------------------------------------------------------------------------
// CPU (Linux /proc): this process, and Chromium's process tree (its children, reaped renderers included)

const TICK_MS = 10; // USER_HZ = 100

/** CPU ms of this process's children (Chromium and its helpers; utime+stime+cutime+cstime). */
function childrenCpuMs(): number {
  let total = 0;
  for (const pid of descendants(process.pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
      total += (f[11] + f[12] + f[13] + f[14]) * TICK_MS;
    } catch { /* gone */ }
  }
  return total;
}
const selfCpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

// ---------------------------------------------------------------------------------------------------------------
// Database

async function fillSmallDatabase(count: number) {
  await prepareDatabase(databaseUrl, log, { devAccounts: true });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: [requester] } = await client.query('select id from users where email = $1', [DEV_REQUESTER.email]);
    const have = Number((await client.query('select count(*) as n from requests where requester_id = $1', [requester.id])).rows[0].n);
    if (have >= count) return;
    log(`inserting ${count - have} requests of ${DEV_REQUESTER.email}`);
    await client.query(`
      insert into requests (created_at, updated_at, request_number, request_type, certificate_type, auto_type, status, source, submit_date,
        requester_id, requester_name, requester_last_name, requester_email, requester_company, employer_type, verified,
        last_name, first_name, date_from, date_to, provider_type, reason, version)
      select now() - g * interval '7 minutes', now() - g * interval '7 minutes', 2000000 + g,
        case when g % 3 = 0 then 'certificate' else 'credentialing' end,
        case when g % 3 = 0 then (array['Clinician','Event','Provider','Property'])[1 + g % 4] end, null,
        (array['Submitted','Approved','Denied','Pending Additional Information','Approved','Draft','Pending Employment'])[1 + g % 7], 'external',
        case when g % 7 <> 5 then now() - g * interval '7 minutes' end,
        $1, 'Bench Requester', 'Requester', $2, 'Mercy Hospital', 'external', g % 2 = 0,
        'Lastname' || g, 'First', timestamptz '2015-01-01 11:00+00', timestamptz '2024-12-31 11:00+00',
        'Current Employee/Fellow/Resident', 'Future employment', 1
      from generate_series($3::int, $4::int) as g`, [requester.id, DEV_REQUESTER.email, have + 1, count]);
    await client.query('analyze requests');
  } finally {
    await client.end();
  }
}

interface BenchUser { id: number; email: string; sessionVersion: number }

async function databaseFacts(): Promise<{ requests: number; admin: BenchUser; heavyRequester: BenchUser & { requests: number } }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    console.error(`[bench:browser] cannot open ${databaseUrl}: ${(error as Error).message}\n` +
      'Fill it first with  npm run seed:requests  (the lists benchmark), or try the bench with  --small 3000');
    process.exit(2);
  }
  try {
    const requests = Number((await client.query('select count(*) as n from requests')).rows[0].n);
    const { rows: [heavy] } = await client.query(`
      select u.id, u.email, u.session_version, count(*)::int as requests from requests r join users u on u.id = r.requester_id
      where u.deleted_at is null and not exists (select 1 from admins a where a.email = u.email)
      group by u.id order by count(*) desc limit 1`);
    if (!heavy) throw new Error('no requester has requests');
    // The development administrator when seeded (signed in with its password), else the first administrator.
    const { rows: [admin] } = await client.query(`
      select u.id, u.email, u.session_version from users u join admins a on a.email = u.email
      where u.deleted_at is null order by u.email = $1 desc, u.id limit 1`, [DEV_ADMIN.email]);
    if (!admin) throw new Error('no administrator can sign in');
    return {
      requests,
      admin: { id: admin.id, email: admin.email, sessionVersion: admin.session_version },
      heavyRequester: { id: heavy.id, email: heavy.email, sessionVersion: heavy.session_version, requests: heavy.requests },
    };
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// In the page: when the dashboard is ready, LCP and long tasks (installed before any script of the page runs)

declare global {
  interface Window { __bench?: { readyAt?: number; lcp: number; longTasks: number[] } }
}

/**
 * Runs in every document: marks the moment the active tab's first table has rows and the page takes input again.
 * A string, not a function: tsx (esbuild keepNames) would wrap inner functions in a `__name` helper the page lacks.
 */
const PAGE_PROBE = `(() => {
  const bench = { readyAt: undefined, lcp: 0, longTasks: [] };
  window.__bench = bench;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) bench.lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) bench.longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
  let marked = false;
  const observer = new MutationObserver(() => {
    if (marked || document.querySelector('[role="tabpanel"] table tbody tr') === null) return;
    marked = true;
    observer.disconnect();
    // The frame that paints the rows, then a task: an input event queued now would be handled at this point.
    requestAnimationFrame(() => setTimeout(() => { bench.readyAt = performance.now(); }, 0));
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

interface Load { readyMs: number; lcpMs: number; longTasks: number; longTaskMs: number; waterfall: string }

async function loadDashboard(page: Page): Promise<Load> {
  await page.goto('/', { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__bench?.readyAt !== undefined, undefined, { timeout: 30_000, polling: 50 });
  const probe = await page.evaluate(() => window.__bench!);
  // What the page fetched before it was ready, and when (ms from navigation start): where the time goes.
  const waterfall = await page.evaluate((readyAt) => performance.getEntriesByType('resource')
    .filter((e) => e.startTime <= readyAt)
    .map((e) => `${new URL(e.name).pathname.replace(/^\/(api\/v1|assets)\//, '').replace(/-[\w-]{8}\.js$/, '.js')} ${e.startTime.toFixed(0)}–${(e as PerformanceResourceTiming).responseEnd.toFixed(0)}`)
    .join(', '), probe.readyAt!);
  return {
    waterfall, readyMs: probe.readyAt!, lcpMs: probe.lcp, longTasks: probe.longTasks.length,
    longTaskMs: probe.longTasks.reduce((sum, d) => sum + d, 0),
  };
}

/** A session as the API's login would hand it (a token it signed) in the UI's token storage. */
async function signInWithToken(page: Page, token: string) {
  await page.goto('/login');
  await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [TOKEN_KEY, token]);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

interface Scenario {
  who: string; rows: string; cold: Load; warm: Load[]; p50: number; p95: number; lcpP50: number; longTaskMsP50: number;
  chromiumCpuMsPerLoad: number; apiCpuMsPerLoad: number; load1: number;
}

async function measure(browser: Browser, baseUrl: string, who: string, signIn: (page: Page) => Promise<void>): Promise<Scenario> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  await context.addInitScript({ content: PAGE_PROBE });
  const page = await context.newPage();
  page.on('pageerror', (error) => log(`page error (${who}): ${error.message}`));
  page.on('console', (message) => { if (message.type() === 'error') log(`console error (${who}): ${message.text()}`); });
  try {
    await signIn(page);
    const cold = await loadDashboard(page);
    const rows = await page.locator('[role="tabpanel"] table tbody tr').count();
    const tabs = (await page.getByRole('tab').allTextContents()).join(' | ');
    const warm: Load[] = [];
    const chromiumBefore = childrenCpuMs();
    const selfBefore = selfCpuMs();
    for (let i = 0; i < LOADS; i += 1) warm.push(await loadDashboard(page));
    const chromiumCpuMsPerLoad = (childrenCpuMs() - chromiumBefore) / LOADS;
    const apiCpuMsPerLoad = (selfCpuMs() - selfBefore) / LOADS;
    const ready = warm.map((l) => l.readyMs);
    return {
      who, rows: `${rows} rows in the active tab; tabs: ${tabs}`, cold, warm,
      p50: percentile(ready, 50), p95: percentile(ready, 95),
      lcpP50: percentile(warm.map((l) => l.lcpMs), 50), longTaskMsP50: percentile(warm.map((l) => l.longTaskMs), 50),
      chromiumCpuMsPerLoad, apiCpuMsPerLoad, load1: os.loadavg()[0],
    };
  } catch (error) {
    const shot = path.join(RESULTS_DIR, `browser-failure-${Date.now()}.png`);
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
    log(`${who}: failed at ${page.url()}; screenshot ${path.relative(root, shot)}`);
    throw error;
  } finally {
    await context.close();
  }
}

async function main(): Promise<number> {
  log(`Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);

  if (BUILD) {
    log('building the UI (vite build, production)…');
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'ui/vite.config.ts', '--logLevel', 'warn'],
      { cwd: root, env: { ...process.env, NODE_ENV: 'production' }, stdio: 'inherit' });
  } else if (!fs.existsSync(path.join(UI_DIST_DIR, 'index.html'))) {
    throw new Error('--no-build: the UI is not built (npm run build:ui)');
  } else log('the UI as built in ui/dist (--no-build)');
  const initial = measureInitialJs();
  log(`initial JS: ${kib(initial.gzipBytes)} gzip (${kib(initial.rawBytes)} raw), ${initial.files.length} files`);

  if (SMALL !== null) await fillSmallDatabase(SMALL);
  const facts = await databaseFacts();
  log(`database ${new URL(databaseUrl).pathname.slice(1)}: ${facts.requests} requests; heavy requester ${facts.heavyRequester.email} with ${facts.heavyRequester.requests}`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coi-bench-browser-'));
  stopLater('remove the data folder', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  // The API alone in this process (devtools/portal-in-process.ts): the dashboards start no workflow, send no mail.
  const portal = await startPortalInProcess({
    env: {
      ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn',
      TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:1', // never dialled
    },
    worker: false, smtpSink: false, listen: true, poolMax: 5,
  });
  stopLater('stop the API', () => portal.stop());
  const { app } = portal;
  const baseUrl = portal.baseUrl!;
  const browser = await chromium.launch({ executablePath: UI_BROWSER_PATH });
  stopLater('close Chromium', () => browser.close());
  const scenarios: Scenario[] = [];
  scenarios.push(await measure(browser, baseUrl, `administrator ${facts.admin.email}`, async (page) => {
    if (facts.admin.email === DEV_ADMIN.email) {
      await page.goto('/login');
      await page.locator('input[name="email"]').fill(DEV_ADMIN.email);
      await page.locator('input[name="password"]').fill(DEV_ADMIN.password);
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor({ timeout: 30_000 });
    } else {
      await signInWithToken(page, signSessionToken(app, facts.admin));
    }
  }));
  const token = signSessionToken(app, facts.heavyRequester);
  scenarios.push(await measure(browser, baseUrl, `requester ${facts.heavyRequester.email} (${facts.heavyRequester.requests} requests)`,
    (page) => signInWithToken(page, token)));

  const problems: string[] = [];
  if (initial.gzipBytes > INITIAL_JS_BUDGET_BYTES) problems.push(`initial JS ${kib(initial.gzipBytes)} gzip > ${kib(INITIAL_JS_BUDGET_BYTES)}`);
  console.log('');
  console.log(`Dashboard, warm loads (n=${LOADS}) in Chromium, ${facts.requests} requests in the database; initial JS ${kib(initial.gzipBytes)} gzip`);
  for (const s of scenarios) {
    console.log(`  ${s.who}: ${s.rows}`);
    console.log(`    ready (rows shown + input answered): p50 ${s.p50.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms (cold ${s.cold.readyMs.toFixed(0)} ms); ` +
      `LCP p50 ${s.lcpP50.toFixed(0)} ms; long tasks p50 ${s.longTaskMsP50.toFixed(0)} ms/load`);
    console.log(`    last warm load fetched (ms from navigation start): ${s.warm[s.warm.length - 1].waterfall}`);
    console.log(`    CPU per warm load: Chromium ${s.chromiumCpuMsPerLoad.toFixed(0)} ms, API process ${s.apiCpuMsPerLoad.toFixed(0)} ms; load average (1 min) ${s.load1.toFixed(2)}`);
    if (s.p95 > TARGET_MS) problems.push(`${s.who}: p95 ${s.p95.toFixed(0)} ms > ${TARGET_MS} ms`);
  }
  const resultsDir = RESULTS_DIR;
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `browser-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify({ loads: LOADS, database: new URL(databaseUrl).pathname.slice(1), requests: facts.requests, initial, scenarios, problems }, null, 2));
  console.log(`results: ${path.relative(process.cwd(), file)}`);
  for (const problem of problems) console.error(`[bench:browser] TARGET MISSED: ${problem}`);
  return problems.length > 0 && targetsFailTheRun ? 1 : 0;
}

runBench('bench:browser', main);
