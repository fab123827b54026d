/**
 * The administrators' reports (definitions: domain/reports.ts), every figure computed by PostgreSQL from the audit
 * trail (`request_status_stays` and `request_report_facts`, rebuilt from it by a trigger: Migration20261128200001)
 * and the request rows, in the office's time zone.
 *
 * Business time uses the clocks' calendar (the configured clock policy: zone, office hours, work days, holidays) as
 * the table `office_calendar_days` (office-calendar.ts: rebuilt when the configuration changes, ensureOfficeCalendar):
 * the business time between two instants is two key lookups and a subtraction. One business day = one day of office hours.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type RawBuilder } from 'kysely';
import type { Reports, ReportsQuery } from '../../contract/reports.schema';
import {
  BACKLOG_AGE_BANDS, BACKLOG_OLDEST_LIMIT, BACKLOG_STATUSES, CERTIFICATE_REPORT_KINDS, DEFAULT_REPORT_PERIOD, ISSUED_CERTIFICATE_STATUS, instantIssuesReading, ESCALATION_ACTIVITY, NOT_GIVEN_NAME,
  REMINDER_ACTIVITY, REPORT_KINDS, STATUS_WAITS_ON, TIMED_STATUSES, TOP_REQUESTERS_LIMIT,
  backlogReading, missedDeadlinesReading, officeDayAfter, officeDayStart, reportPeriodStarts, reportRangeError,
  requestViewPath, timeInStatusReading, topRequestersReading, turnaroundReading, volumesReading,
  type BacklogAgeBand, type BusinessCalendar, type ReportKind, type ReportPeriod, type RequestStatus,
} from '../../domain';
import { kysely } from '../../db/kysely';
import { invalid } from '../refusals';
import { businessDaysSql, calendarJoin } from './office-calendar';

type Section<K extends keyof Reports> = Reports[K];

/** One report's statement inputs: the office calendar and the query, resolved to instants. */
interface ReportScope {
  calendar: BusinessCalendar;
  from: string;
  to: string;
  kind: ReportKind | null;
  period: ReportPeriod;
  /** inclusive start and exclusive end of the range: office midnights */
  start: Date;
  end: Date;
  now: Date;
}

export function reportScopeOf(query: ReportsQuery, calendar: BusinessCalendar, now = new Date()): ReportScope {
  const problem = reportRangeError(query.from, query.to);
  if (problem) throw invalid(problem, { [problem.includes('start') ? 'from' : 'to']: problem });
  return {
    calendar, from: query.from, to: query.to, kind: query.kind ?? null, period: query.period ?? DEFAULT_REPORT_PERIOD,
    start: officeDayStart(query.from, calendar.timeZone), end: officeDayAfter(query.to, calendar.timeZone), now,
  };
}

// ---------------------------------------------------------------- SQL building blocks

/**
 * Statements are Kysely `sql` templates: values are bound parameters where they are used; `expr` is SQL text of our
 * own (a column such as `f."finished_at"`, never input); constants of the code (statuses, band names) are literals.
 */
type Sql = RawBuilder<unknown>;
const expr = (text: string) => sql.raw(text);
const list = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));

/** ` and <kind> = …` when the report is filtered to a kind (`f` = the request's report facts, which carry its kind now). */
const kindFilter = (scope: ReportScope): Sql => (scope.kind ? sql` and f."kind" = ${scope.kind}::text` : sql``);

/** The week or month (its first day) of an instant, in the office's zone. */
const periodSql = (scope: ReportScope, instant: Sql): Sql =>
  sql`to_char(date_trunc(${scope.period}::text, ${instant} at time zone ${scope.calendar.timeZone}::text), 'YYYY-MM-DD')`;

const round2 = (n: number) => Math.round(n * 100) / 100;
/** Rows by period, then kind in the filter's order (not the database's collation). */
const byPeriodAndKind = <T extends { period: string; kind: ReportKind }>(a: T, b: T) =>
  a.period.localeCompare(b.period) || REPORT_KINDS.indexOf(a.kind) - REPORT_KINDS.indexOf(b.kind);
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

async function run<T>(em: EntityManager, statement: Sql): Promise<T[]> {
  const { rows } = await (statement as RawBuilder<T>).execute(kysely(em));
  return rows;
}

// ---------------------------------------------------------------- the reports

export async function volumesReport(em: EntityManager, scope: ReportScope): Promise<Section<'volumes'>> {
  const part = (column: string, received: 0 | 1) => {
    const instant = expr(`f."${column}"`);
    return sql`
      select ${periodSql(scope, instant)} as "period", f."kind" as "kind", ${sql.lit(received)} as "received", ${sql.lit(1 - received)} as "completed"
      from "request_report_facts" f
      where ${instant} >= ${scope.start} and ${instant} < ${scope.end}${kindFilter(scope)}`;
  };
  const statement = sql`select "period", "kind", sum("received")::int as "received", sum("completed")::int as "completed"
    from (${part('first_submitted_at', 1)} union all ${part('finished_at', 0)}) x group by 1, 2 order by 1, 2`;
  const rows = (await run<{ period: string; kind: ReportKind; received: number; completed: number }>(em, statement)).sort(byPeriodAndKind);
  const received = rows.reduce((n, r) => n + r.received, 0);
  const completed = rows.reduce((n, r) => n + r.completed, 0);
  const periods = reportPeriodStarts(scope.from, scope.to, scope.period).length;
  return { rows, received, completed, reading: volumesReading(received, completed, periods, scope.period) };
}

async function turnaroundReport(em: EntityManager, scope: ReportScope): Promise<Section<'turnaround'>> {
  const submitted = expr('f."first_submitted_at"');
  const finished = expr('f."finished_at"');
  const statement = sql`with done as (
      select ${periodSql(scope, finished)} as "period", f."kind" as "kind",
        ${businessDaysSql(scope.calendar, submitted, finished)} as "days"
      from "request_report_facts" f
      ${calendarJoin(scope.calendar, 'c1', submitted)}${calendarJoin(scope.calendar, 'c2', finished)}
      where f."finished_at" >= ${scope.start} and f."finished_at" < ${scope.end}${kindFilter(scope)})
    select "period", "kind", count(*)::int as "completed",
      percentile_cont(0.5) within group (order by "days") as "median", percentile_cont(0.9) within group (order by "days") as "p90",
      grouping("period") as "allPeriods", grouping("kind") as "allKinds"
    from done group by grouping sets (("period", "kind"), ("kind"), ()) order by "period" nulls first, "kind" nulls first`;
  const rows = await run<{ period: string | null; kind: ReportKind | null; completed: number; median: number | null; p90: number | null; allPeriods: number; allKinds: number }>(em, statement);
  const shape = (r: typeof rows[number]) => ({ completed: r.completed, median: round2(Number(r.median)), p90: round2(Number(r.p90)) });
  const total = rows.find((r) => r.allPeriods && r.allKinds);
  const median = total?.completed ? round2(Number(total.median)) : null;
  const p90 = total?.completed ? round2(Number(total.p90)) : null;
  return {
    rows: rows.filter((r) => !r.allPeriods && !r.allKinds).map((r) => ({ period: r.period!, kind: r.kind!, ...shape(r) })).sort(byPeriodAndKind),
    byKind: rows.filter((r) => r.allPeriods && !r.allKinds).map((r) => ({ kind: r.kind!, ...shape(r) }))
      .sort((a, b) => REPORT_KINDS.indexOf(a.kind) - REPORT_KINDS.indexOf(b.kind)),
    completed: total?.completed ?? 0, median, p90,
    reading: turnaroundReading(total?.completed ?? 0, median, p90),
  };
}

async function timeInStatusReport(em: EntityManager, scope: ReportScope): Promise<Section<'timeInStatus'>> {
  const hi = scope.end < scope.now ? scope.end : scope.now;
  const timed = list(TIMED_STATUSES);
  const kindJoin = scope.kind ? sql` join "request_report_facts" f on f."request_id" = s."request_id"` : sql``;
  // Stays that overlap the range, cut at its ends (and at now): those left inside or after it, and those still open.
  const stays = (which: string) => sql`
      select s."request_id", s."status", greatest(s."entered_at", b.lo) as t1, least(coalesce(s."left_at", b.hi), b.hi) as t2
      from "request_status_stays" s${kindJoin}, b where ${expr(which)} and s."status" in (${timed})${kindFilter(scope)}`;
  const range = sql`b as (select ${scope.start}::timestamptz as lo, ${hi}::timestamptz as hi)`;
  const [t1, t2] = [expr('st.t1'), expr('st.t2')];
  const statement = sql`with ${range}, stays as (${stays('s."left_at" > b.lo and s."entered_at" < b.hi')} union all ${stays('s."left_at" is null and s."entered_at" < b.hi')})
    select st."status", count(distinct st."request_id")::int as "requests",
      sum(${businessDaysSql(scope.calendar, t1, t2)}) as "days"
    from stays st${calendarJoin(scope.calendar, 'c1', t1)}${calendarJoin(scope.calendar, 'c2', t2)}
    where st.t2 > st.t1
    group by 1`;
  const found = new Map((await run<{ status: RequestStatus; requests: number; days: number }>(em, statement)).map((r) => [r.status, r]));
  const rows = TIMED_STATUSES.map((status) => {
    const r = found.get(status);
    const businessDays = round2(Number(r?.days ?? 0));
    const requests = r?.requests ?? 0;
    return { status, waitingOn: STATUS_WAITS_ON[status]!, businessDays, requests, averageBusinessDays: requests ? round2(businessDays / requests) : 0 };
  });
  const office = round2(rows.filter((r) => r.waitingOn === 'office').reduce((n, r) => n + r.businessDays, 0));
  const requester = round2(rows.filter((r) => r.waitingOn === 'requester').reduce((n, r) => n + r.businessDays, 0));
  return { rows, office, requester, reading: timeInStatusReading(office, requester) };
}

export async function backlogReport(em: EntityManager, scope: ReportScope): Promise<Section<'backlog'>> {
  const nowSql = sql`timestamptz ${sql.lit(scope.now.toISOString())}`;
  const bandSql = sql`case ${sql.join(BACKLOG_AGE_BANDS.map((b) => (b.to === null ? sql`else ${sql.lit(b.key)}` : sql`when "age" < ${sql.lit(b.to)} then ${sql.lit(b.key)}`)), sql` `)} end`;
  const submitted = expr('f."first_submitted_at"');
  const statement = sql`with open as (
      select r."id", r."request_number" as "requestNumber", r."request_type" as "requestType", f."kind" as "kind", r."status",
        f."first_submitted_at" as "firstSubmittedAt", r."requester_company" as "requesterCompany",
        ${businessDaysSql(scope.calendar, submitted, nowSql)} as "age"
      from "requests" r join "request_report_facts" f on f."request_id" = r."id"
      ${calendarJoin(scope.calendar, 'c1', submitted)}${calendarJoin(scope.calendar, 'c2', nowSql)}
      where r."status" in (${list(BACKLOG_STATUSES)})${kindFilter(scope)})
    select (select coalesce(json_agg(g), '[]') from (select ${bandSql} as "band", "status", count(*)::int as "count" from open group by 1, 2) g) as "rows",
      (select count(*)::int from open) as "open",
      (select coalesce(json_agg(o), '[]') from (select * from open order by "firstSubmittedAt", "id" limit ${sql.lit(BACKLOG_OLDEST_LIMIT)}) o) as "oldest"`;
  const [row] = await run<{ rows: Array<{ band: BacklogAgeBand; status: RequestStatus; count: number }>; open: number; oldest: Array<Record<string, unknown>> }>(em, statement);
  const bandOrder: string[] = BACKLOG_AGE_BANDS.map((b) => b.key);
  const rows = row.rows.sort((a, b) => bandOrder.indexOf(a.band) - bandOrder.indexOf(b.band) || a.status.localeCompare(b.status));
  const oldest = row.oldest.map((o) => ({
    id: Number(o.id), requestNumber: num(o.requestNumber), requestType: String(o.requestType), kind: o.kind as ReportKind,
    status: o.status as RequestStatus, firstSubmittedAt: new Date(String(o.firstSubmittedAt)), ageBusinessDays: round2(Number(o.age)),
    requesterCompany: (o.requesterCompany as string | null) ?? null, viewPath: requestViewPath(String(o.requestType), Number(o.id)),
  }));
  const overTwenty = rows.filter((r) => r.band === '20-plus').reduce((n, r) => n + r.count, 0);
  return {
    asOf: scope.now, rows, bands: BACKLOG_AGE_BANDS.map((b) => ({ key: b.key, label: b.label })), open: row.open, oldest,
    reading: backlogReading(row.open, overTwenty, oldest[0]?.ageBusinessDays ?? null),
  };
}

async function missedDeadlinesReport(em: EntityManager, scope: ReportScope): Promise<Section<'missedDeadlines'>> {
  const kindJoin = scope.kind ? sql` join "request_report_facts" f on f."request_id" = a."request_id"` : sql``;
  // The condition repeats the partial index's predicate (Migration20261129100001) so the planner uses it.
  const statement = sql`select ${periodSql(scope, expr('a."date"'))} as "period",
      count(*) filter (where a."activity_type" = ${REMINDER_ACTIVITY})::int as "reminders",
      count(*) filter (where a."activity_type" = ${ESCALATION_ACTIVITY})::int as "escalations",
      count(*) filter (where a."clock" = 'auto-close')::int as "autoClosed"
    from "request_activity" a${kindJoin}
    where a."clock" in ('reminder-1', 'reminder-2', 'escalation', 'auto-close')
      and a."date" >= ${scope.start} and a."date" < ${scope.end}${kindFilter(scope)}
    group by 1 order by 1`;
  const rows = await run<{ period: string; reminders: number; escalations: number; autoClosed: number }>(em, statement);
  const sum = (key: 'reminders' | 'escalations' | 'autoClosed') => rows.reduce((n, r) => n + r[key], 0);
  const [reminders, escalations, autoClosed] = [sum('reminders'), sum('escalations'), sum('autoClosed')];
  return { rows, reminders, escalations, autoClosed, reading: missedDeadlinesReading(reminders, escalations, autoClosed) };
}

async function topRequestersReport(em: EntityManager, scope: ReportScope): Promise<Section<'topRequesters'>> {
  const department = expr(`coalesce(nullif(case when r."vehicle_owning_dept" = 'Other' then r."vehicle_owning_dept_other" else r."vehicle_owning_dept" end, ''), r."requester_company")`);
  const statement = sql`with recv as (
      select r."employer_type" = 'external' as "external",
        coalesce(nullif(trim(case when r."employer_type" = 'external' then r."requester_company" else ${department} end), ''), ${sql.lit(NOT_GIVEN_NAME)}) as "name",
        f."finished_at" is not null as "done"
      from "request_report_facts" f join "requests" r on r."id" = f."request_id"
      where f."first_submitted_at" >= ${scope.start} and f."first_submitted_at" < ${scope.end}${kindFilter(scope)}),
    grouped as (
      select "external", "name", count(*)::int as "requests", count(*) filter (where "done")::int as "completed",
        row_number() over (partition by "external" order by count(*) desc, "name") as "rank"
      from recv group by 1, 2)
    select "external", "name", "requests", "completed", (select count(*)::int from recv) as "received"
    from grouped where "rank" <= ${sql.lit(TOP_REQUESTERS_LIMIT)} order by "external" desc, "rank"`;
  const rows = await run<{ external: boolean; name: string; requests: number; completed: number; received: number }>(em, statement);
  const pick = (external: boolean) => rows.filter((r) => r.external === external).map(({ name, requests, completed }) => ({ name, requests, completed }));
  const companies = pick(true);
  const departments = pick(false);
  const top = [...companies, ...departments].sort((a, b) => b.requests - a.requests)[0];
  return { companies, departments, reading: topRequestersReading(top, rows[0]?.received ?? 0) };
}

/**
 * Of the certificates completed as Approved in the range, those an instant-certificate rule issued against those
 * people decided, with each one's median turnaround (business days, and time elapsed). One statement over the
 * finished-requests index of the roll-up; whether a rule issued a request is one probe of instant_decisions' request
 * index per finished certificate.
 */
async function instantIssuesReport(em: EntityManager, scope: ReportScope): Promise<Section<'instantIssues'>> {
  const submitted = expr('f."first_submitted_at"');
  const finished = expr('f."finished_at"');
  const statement = sql`with issued as (
      select ${businessDaysSql(scope.calendar, submitted, finished)} as "days",
        extract(epoch from f."finished_at" - f."first_submitted_at") as "seconds",
        exists (select 1 from "instant_decisions" d where d."request_id" = f."request_id" and d."outcome" = 'issued') as "byRule"
      from "request_report_facts" f
      ${calendarJoin(scope.calendar, 'c1', submitted)}${calendarJoin(scope.calendar, 'c2', finished)}
      where f."finished_at" >= ${scope.start} and f."finished_at" < ${scope.end}
        and f."last_status" = ${sql.lit(ISSUED_CERTIFICATE_STATUS)} and f."kind" in (${list(CERTIFICATE_REPORT_KINDS)})${kindFilter(scope)})
    select "byRule", count(*)::int as "issued",
      percentile_cont(0.5) within group (order by "days") as "median", percentile_cont(0.5) within group (order by "seconds") as "seconds"
    from issued group by 1`;
  const rows = await run<{ byRule: boolean; issued: number; median: number | null; seconds: number | null }>(em, statement);
  const side = (byRule: boolean) => {
    const r = rows.find((x) => x.byRule === byRule);
    return r ? { issued: r.issued, median: round2(Number(r.median)), medianElapsedSeconds: round2(Number(r.seconds)) } : { issued: 0, median: null, medianElapsedSeconds: null };
  };
  const [rule, office] = [side(true), side(false)];
  const certificates = rule.issued + office.issued;
  return {
    certificates, rule, office, sharePercent: certificates ? Math.round((rule.issued / certificates) * 1000) / 10 : 0,
    reading: instantIssuesReading(certificates, rule, office),
  };
}

export const REPORT_SECTIONS = {
  volumes: volumesReport,
  turnaround: turnaroundReport,
  timeInStatus: timeInStatusReport,
  backlog: backlogReport,
  missedDeadlines: missedDeadlinesReport,
  topRequesters: topRequestersReport,
  instantIssues: instantIssuesReport,
} as const;

/**
 * Every report of the page, computed together (one statement each, in parallel on the pool). The office calendar
 * table must match `calendar` first (ensureOfficeCalendar: the route checks once per process).
 */
export async function reportsOf(em: EntityManager, query: ReportsQuery, calendar: BusinessCalendar, now = new Date()): Promise<Reports> {
  const scope = reportScopeOf(query, calendar, now);
  const [volumes, turnaround, timeInStatus, backlog, missedDeadlines, topRequesters, instantIssues] = await Promise.all([
    volumesReport(em, scope), turnaroundReport(em, scope), timeInStatusReport(em, scope),
    backlogReport(em, scope), missedDeadlinesReport(em, scope), topRequestersReport(em, scope), instantIssuesReport(em, scope),
  ]);
  return {
    filter: { from: scope.from, to: scope.to, kind: scope.kind, period: scope.period, timeZone: calendar.timeZone, generatedAt: now },
    periods: reportPeriodStarts(scope.from, scope.to, scope.period),
    kinds: scope.kind ? [scope.kind] : [...REPORT_KINDS],
    volumes, turnaround, timeInStatus, backlog, missedDeadlines, topRequesters, instantIssues,
  };
}
