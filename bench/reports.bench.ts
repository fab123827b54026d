/**
 * `npm run bench:reports [-- --requests 100000 --runs 40 --explain]`: each administrators' report
 * (services/desk/reports.ts) at a year's volume: 100,000 requests with their audit trail (bench/seed-requests.ts, in the kept
 * database `coi_bench_reports`, REPORTS_BENCH_DATABASE_URL to change it; filled once and reused).
 *
 * For three questions an office asks (last quarter by month; the last twelve months by week; last quarter for one
 * kind), runs every report's statement `--runs` times one after another (after three warm-up runs) through the
 * service as the route calls it, and prints p50 / p95 / max per report, then the whole page (all seven together, as
 * the route runs them) and the xlsx download built from it. `--explain` prints EXPLAIN (ANALYZE, BUFFERS) of every
 * statement of the first question. Prints the machine's calibrate figure beside the timings (/work/shared/calibrate.mjs
 * when present). Target: every report p95 ≤ 300 ms. Exits 1 when one is missed (`--smoke`: never for a target).
 */
import { performance } from 'node:perf_hooks';
import { createOrm } from '../db/orm';
import { DEFAULT_CLOCK_POLICY, addDays, officeToday, type ReportKind } from '../domain';
import { ensureOfficeCalendar } from '../services/desk/office-calendar';
import { REPORT_SECTIONS, reportScopeOf, reportsOf, volumesReport } from '../services/desk/reports';

type EntityManager = Parameters<typeof volumesReport>[0];
import { reportsWorkbook } from '../services/desk/reports-workbook';
import { calibration, runBench, stopLater, targetsFailTheRun } from './lifecycle';
import { seedListsDatabase } from './seed-requests';

const argValue = (name: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : undefined; };
const REQUESTS = Number(argValue('requests') ?? 100_000);
const RUNS = Number(argValue('runs') ?? 40);
const EXPLAIN = process.argv.includes('--explain');
const DATABASE_URL = process.env.REPORTS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/coi_bench_reports';
const TARGET_P95_MS = 300;
const log = (line: string) => console.log(`[bench:reports] ${line}`);

const calendar = DEFAULT_CLOCK_POLICY.calendar;

function lastQuarter(today: string): { from: string; to: string } {
  const [y, m] = today.split('-').map(Number);
  const q = Math.floor((m - 1) / 3); // this quarter 0..3
  const startY = q === 0 ? y - 1 : y;
  const startM = q === 0 ? 10 : (q - 1) * 3 + 1;
  const from = `${startY}-${String(startM).padStart(2, '0')}-01`;
  const next = startM + 3 > 12 ? `${startY + 1}-01-01` : `${startY}-${String(startM + 3).padStart(2, '0')}-01`;
  return { from, to: addDays(next, -1) };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function time(runs: number, work: () => Promise<unknown>): Promise<{ p50: number; p95: number; max: number }> {
  for (let i = 0; i < 3; i += 1) await work();
  const took: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await work();
    took.push(performance.now() - started);
  }
  took.sort((a, b) => a - b);
  return { p50: percentile(took, 50), p95: percentile(took, 95), max: took[took.length - 1] };
}

/** An entity manager whose statements are captured (for EXPLAIN) instead of run. */
function capturing(statements: Array<{ sql: string; values: unknown[] }>): EntityManager {
  return { getConnection: () => ({ execute: async (sql: string, values: unknown[]) => { statements.push({ sql, values }); return [{ rows: [], open: 0, oldest: [] }]; } }) } as never;
}

async function main(): Promise<number> {
  await seedListsDatabase(DATABASE_URL, REQUESTS);
  const orm = await createOrm(DATABASE_URL, { poolMax: 10 });
  stopLater('close the database pool', () => orm.close());
  const em = orm.em.fork() as unknown as EntityManager;
  const counts = (await em.getConnection().execute<Array<Record<string, number>>>(
    `select (select count(*)::int from requests) as requests, (select count(*)::int from request_activity) as audit,
      (select count(*)::int from request_status_stays) as stays, (select count(*)::int from request_report_facts) as facts`, [], 'all'))[0];
  log(`${counts.requests} requests, ${counts.audit} audit rows, ${counts.stays} status stays, ${counts.facts} submitted requests`);

  await ensureOfficeCalendar(em, calendar);
  const today = officeToday(calendar.timeZone);
  const quarter = lastQuarter(today);
  const questions: Array<{ name: string; query: { from: string; to: string; period: 'week' | 'month'; kind?: ReportKind } }> = [
    { name: 'last quarter, by month', query: { ...quarter, period: 'month' } },
    { name: 'last 12 months, by week', query: { from: addDays(today, -364), to: today, period: 'week' } },
    { name: 'last quarter, claim history only', query: { ...quarter, period: 'month', kind: 'Claim History and Insurance Verification' } },
  ];
  const results: Array<{ question: string; report: string; p50: number; p95: number; max: number }> = [];
  for (const { name, query } of questions) {
    log(`${name} (${query.from} to ${query.to}):`);
    const scope = reportScopeOf(query, calendar);
    for (const [report, compute] of Object.entries(REPORT_SECTIONS)) {
      const t = await time(RUNS, () => compute(em, scope));
      results.push({ question: name, report, ...t });
      log(`  ${report.padEnd(16)} p50 ${t.p50.toFixed(1).padStart(6)} ms  p95 ${t.p95.toFixed(1).padStart(6)} ms  max ${t.max.toFixed(1).padStart(6)} ms`);
    }
    const page = await time(Math.ceil(RUNS / 2), () => reportsOf(orm.em.fork() as unknown as EntityManager, query, calendar));
    log(`  ${'whole page'.padEnd(16)} p50 ${page.p50.toFixed(1).padStart(6)} ms  p95 ${page.p95.toFixed(1).padStart(6)} ms  (seven statements in parallel)`);
    const figures = await reportsOf(em, query, calendar);
    const xlsx = await time(Math.ceil(RUNS / 4), async () => reportsWorkbook(await reportsOf(orm.em.fork() as unknown as EntityManager, query, calendar)));
    log(`  ${'xlsx download'.padEnd(16)} p50 ${xlsx.p50.toFixed(1).padStart(6)} ms  p95 ${xlsx.p95.toFixed(1).padStart(6)} ms`);
    log(`  readings: ${[figures.volumes.reading, figures.turnaround.reading, figures.timeInStatus.reading, figures.backlog.reading,
      figures.missedDeadlines.reading, figures.topRequesters.reading, figures.instantIssues.reading].join(' | ')}`);
  }

  if (EXPLAIN) {
    const scope = reportScopeOf(questions[0].query, calendar);
    for (const [report, compute] of Object.entries(REPORT_SECTIONS)) {
      const statements: Array<{ sql: string; values: unknown[] }> = [];
      await compute(capturing(statements), scope).catch(() => undefined);
      for (const { sql, values } of statements) {
        const plan = await em.getConnection().execute<Array<{ 'QUERY PLAN': string }>>(`explain (analyze, buffers) ${sql}`, values, 'all');
        log(`EXPLAIN ${report}:\n${plan.map((row) => row['QUERY PLAN']).join('\n')}`);
      }
    }
  }

  const calibrated = calibration();
  if (calibrated) log(`calibrate: ${calibrated}`);
  const missed = results.filter((r) => r.p95 > TARGET_P95_MS);
  for (const r of missed) log(`TARGET MISSED: ${r.question} / ${r.report} p95 ${r.p95.toFixed(1)} ms > ${TARGET_P95_MS} ms`);
  log(missed.length ? 'target missed' : `every report p95 ≤ ${TARGET_P95_MS} ms: met`);
  return missed.length && targetsFailTheRun ? 1 : 0;
}

runBench('bench:reports', main);
