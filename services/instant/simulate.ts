/**
 * The simulator: what a draft rule would have done over the last 12 months of requests, computed in PostgreSQL in one
 * statement. The rule's conditions are compiled to parameterised SQL by react-querybuilder's `formatQuery` (the
 * editor's own library) over a subquery of facts whose columns are named as the rule's fields and hold what
 * domain/instant-rules.ts `requestFacts` gives the evaluator: text as '' when empty, numbers null when unknown. Every
 * condition is compiled here (the library's defaults differ from the evaluator on NULL, on empty groups and on
 * `disabled`/`muted`/`valueSource`); the library brings the groups, `not` and the parentheses.
 * tests/api/instant-simulator.test.ts holds the compilation to `evaluateRule` on random requests and rules.
 *
 * Choices:
 * - A request is judged as it was submitted: `documentCount` counts the documents it had at its submit date (not the
 *   letters or files added later). The free-text guard of the real decision (`unreadFreeText`) applies too; the
 *   policy-year coverage, the office switch and requester holds are not replayed (they say nothing of the rule).
 * - `dailyCap`, when given, lets the first `dailyCap` matches of each office day (by submit time) issue.
 * - "Differed": the office denied it; else it ever went to Pending Additional Information; else an administrator's
 *   Field Edit changed the certificate holder or a date of its kind. The first reason in that order is named.
 */
import { performance } from 'node:perf_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { formatQuery } from 'react-querybuilder/formatQuery';
import {
  CERTIFICATE_KINDS, FIELD_EDIT_ACTIVITY, fieldsNamed, fieldsOf, FREE_TEXT_GUARDED, INSTANT_MESSAGES, periodFieldsOf, ruleFieldOf, ruleProblems,
  ruleValueList, formatOfficeDate, STATUS, type CertificateType, type RuleCondition, type RuleGroup,
} from '../../domain';
import type { SimulateBody, SimulationResult } from '../../contract/instant.schema';
import { RequestSchema } from '../../db/entities';
import { kysely, type Database } from '../../db/kysely';
import { invalid } from '../refusals';

/** How far back the simulator looks. */
const WINDOW_MONTHS = 12;
/** How many differing requests the answer lists (the total is counted). */
const DIFFERED_LISTED = 100;

/** What JavaScript's `String.prototype.trim` removes: the free-text guard trims as the evaluator does. */
const JS_WHITESPACE = `\t\n\v\f\r \u00a0\u1680${Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)).join('')}\u2028\u2029\u202f\u205f\u3000\ufeff`;

export interface SimulationScope {
  kinds: readonly string[];
  conditions: RuleGroup;
  timeZone: string;
  /** submitted at or after */
  from: Date;
  /** submitted at or before */
  to: Date;
}

// ---- the rule as SQL --------------------------------------------------------------------------------------------

type FormatQueryGroup = Parameters<typeof formatQuery>[0];
type CompiledRule = { sql: string; params: unknown[] };

/** A condition that always holds or never does: what an empty group is for the evaluator ('and' true, 'or' false). */
const CONSTANT_FIELD = '~constant';

/**
 * The rule as the evaluator reads it and nothing else: 'or' or else 'and', `not` when truthy, every condition its
 * field, operator and value (the library would skip `disabled`/`muted` rules, read `valueSource` and `match`, and
 * write the combinator into the SQL as given), an empty group replaced by its constant.
 */
function asEvaluated(group: RuleGroup): FormatQueryGroup {
  const or = group.combinator === 'or';
  const rules = group.rules.map((r) => (Array.isArray((r as RuleGroup).rules)
    ? asEvaluated(r as RuleGroup)
    : { field: (r as RuleCondition).field, operator: (r as RuleCondition).operator, value: (r as RuleCondition).value }));
  return { combinator: or ? 'or' : 'and', not: Boolean(group.not), rules: rules.length ? rules : [{ field: CONSTANT_FIELD, operator: '=', value: !or }] } as FormatQueryGroup;
}

const NUMBER_OPERATORS: Record<string, string> = { '=': '=', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

/**
 * One condition (checked by `ruleProblems` before) as SQL with `?` for each value, on the facts' columns: text is never
 * null there (''), a number may be (every comparison then false, also under `not`: hence the coalesce).
 */
function conditionSql(rule: { field: string; operator: string; value?: unknown }): CompiledRule {
  if (rule.field === CONSTANT_FIELD) return { sql: rule.value === true ? 'true' : 'false', params: [] };
  const field = ruleFieldOf(rule.field);
  if (!field || !/^[A-Za-z][A-Za-z0-9]*$/.test(field.name)) throw new Error(`Not a rule field: ${rule.field}`);
  const column = `"${field.name}"`;
  const op = rule.operator;
  if (field.type === 'number') {
    if (op === 'null') return { sql: `${column} is null`, params: [] };
    if (op === 'notNull') return { sql: `${column} is not null`, params: [] };
    return { sql: `coalesce(${column} ${NUMBER_OPERATORS[op]} ?::float8, false)`, params: [Number(rule.value)] };
  }
  if (field.type === 'boolean') return { sql: `${column} = ?::boolean`, params: [rule.value === true] };
  switch (op) {
    case 'null': return { sql: `${column} = ''`, params: [] };
    case 'notNull': return { sql: `${column} <> ''`, params: [] };
    case '=': return { sql: `${column} = ?::text`, params: [String(rule.value)] };
    case '!=': return { sql: `${column} <> ?::text`, params: [String(rule.value)] };
    case 'in': return { sql: `${column} = any(?::text[])`, params: [ruleValueList(rule.value as never).map(String)] };
    case 'notIn': return { sql: `not (${column} = any(?::text[]))`, params: [ruleValueList(rule.value as never).map(String)] };
    default: throw new Error(`Not an operator of ${field.name}: ${op}`);
  }
}

/** The rule's conditions as a boolean SQL expression over the facts' columns, every value bound. */
export function ruleSql(conditions: RuleGroup): RawBuilder<boolean> {
  const compiled = formatQuery(asEvaluated(conditions), {
    format: 'parameterized',
    ruleProcessor: (rule) => conditionSql(rule),
  });
  const pieces = compiled.sql.split('?');
  if (pieces.length !== compiled.params.length + 1) throw new Error('The compiled rule does not bind one value per placeholder');
  // The library's text (parentheses, and/or, NOT, our conditions) with each `?` bound through Kysely, in order.
  return sql<boolean>`(${sql.join(pieces.flatMap((text, i) => (i === 0 ? [sql.raw(text)] : [sql`${compiled.params[i - 1]}`, sql.raw(text)])), sql``)})`;
}

// ---- the facts ----------------------------------------------------------------------------------------------------

let columns: Map<string, string> | undefined;
/** The request's column of each form field (the ORM's naming). */
function columnOf(em: EntityManager, name: string): RawBuilder<unknown> {
  columns ??= new Map(Object.entries(em.getMetadata(RequestSchema).properties as Record<string, { fieldNames?: string[] }>)
    .filter(([, p]) => p.fieldNames?.length === 1).map(([n, p]) => [n, p.fieldNames![0]]));
  const column = columns.get(name);
  if (!column) throw new Error(`No column for the form field ${name}`);
  return sql.ref(`r.${column}`);
}

const DERIVED = new Set(['requesterType', 'requesterCompany', 'periodDays', 'daysUntilStart', 'documentCount']);

/**
 * The submitted requests of the kinds in the window, each with the facts the rule names (and the free text the guard
 * reads), named as the rule's fields: a subquery.
 */
function factsSql(em: EntityManager, scope: SimulationScope, fieldNames: ReadonlySet<string>): RawBuilder<unknown> {
  const tz = scope.timeZone;
  const facts: RawBuilder<unknown>[] = [];
  for (const name of fieldNames) {
    const field = ruleFieldOf(name);
    if (!field || DERIVED.has(name)) continue;
    const value = field.type === 'boolean' ? sql`coalesce(${columnOf(em, name)}, false)` : sql`coalesce(${columnOf(em, name)}::text, '')`;
    facts.push(sql`${value} as ${sql.id(name)}`);
  }
  if (fieldNames.has('requesterType')) facts.push(sql`coalesce(r.employer_type, '') as "requesterType"`);
  if (fieldNames.has('requesterCompany')) facts.push(sql`coalesce(r.requester_company, '') as "requesterCompany"`);
  if (fieldNames.has('periodDays')) facts.push(sql`(p.to_day - p.from_day + 1) as "periodDays"`);
  if (fieldNames.has('daysUntilStart')) facts.push(sql`(p.from_day - (r.submit_date at time zone ${tz})::date) as "daysUntilStart"`);
  if (fieldNames.has('documentCount')) {
    facts.push(sql`(select count(*)::int from documents d where d.request_id = r.id and d.created_at <= r.submit_date) as "documentCount"`);
  }
  // The period's days in office time, from the columns of the kind's first period (none for kinds without one).
  const periods = scope.kinds.map((k) => ({ kind: k, period: periodFieldsOf(k as CertificateType) })).filter((p) => p.period);
  const dayOf = (end: 'from' | 'to') => (periods.length
    ? sql`(case r.certificate_type ${sql.join(periods.map(({ kind, period }) => sql`when ${kind} then ${columnOf(em, period![end])}`), sql` `)} end at time zone ${tz})::date`
    : sql`null::date`);
  return sql`
    select r.id, r.request_number, r.certificate_type, r.status, r.submit_date, r.completed_date${facts.length ? sql`, ${sql.join(facts)}` : sql``}
    from requests r
    cross join lateral (select ${dayOf('from')} as from_day, ${dayOf('to')} as to_day) p
    where r.request_type = 'certificate' and r.certificate_type = any(${[...scope.kinds]}::text[]) and r.status <> ${STATUS.draft}
      and r.submit_date >= ${scope.from} and r.submit_date <= ${scope.to}`;
}

/**
 * The requests of the window the rule would have issued (before any daily cap): its conditions hold and its free
 * text is all the rule reads. A subquery of id, request_number, certificate_type, status, submit_date, completed_date.
 * `freeTextGuard: false` leaves the guard out (the conditions alone, as `evaluateRule` judges them).
 */
export function matchedRequestsSql(em: EntityManager, scope: SimulationScope, options: { freeTextGuard?: boolean } = {}): RawBuilder<unknown> {
  const named = fieldsNamed(scope.conditions);
  const guarded = options.freeTextGuard === false ? [] : [...FREE_TEXT_GUARDED].filter((name) => !named.has(name));
  const facts = factsSql(em, scope, new Set([...named, ...guarded]));
  const guard = guarded.map((name) => sql` and btrim(f.${sql.id(name)}, ${JS_WHITESPACE}) = ''`);
  return sql`
    select f.id, f.request_number, f.certificate_type, f.status, f.submit_date, f.completed_date
    from (${facts}) f
    where ${ruleSql(scope.conditions)}${sql.join(guard, sql``)}`;
}

// ---- the simulation -----------------------------------------------------------------------------------------------

/** The labels whose Field Edit says the office changed what a certificate states: the holder, or a date. */
function changedLabels(kinds: readonly string[]): string[] {
  const labels = kinds.flatMap((k) => fieldsOf(CERTIFICATE_KINDS[k as CertificateType])
    .filter((f) => !f.adminOnly && (f.kind === 'date' || f.name.startsWith('certificateHolder'))).map((f) => f.label));
  return [...new Set(labels)];
}

type DifferedBy = 'denied' | 'pended' | 'changed';
export interface SimulationRow {
  considered: number; would_issue: number; median_hours: number | null; differed_total: number;
  by_kind_month: Array<{ kind: string; month: string; count: number }>;
  differed: Array<{ id: number; request_number: number | null; certificate_type: string | null; status: string; differed_by: DifferedBy; happened_at: string | null; note: string | null }>;
}

const detailOf = (by: DifferedBy, at: string | null, text: string | null, timeZone: string): string => {
  const day = at ? ` on ${formatOfficeDate(at, timeZone)}` : '';
  if (by === 'denied') return `Denied${day}`;
  if (by === 'pended') return `Pended for more information${day}`;
  return `${text ?? 'Edited'}${day}`;
};

/** The rule as written, checked: refused in the editor's words when it cannot be evaluated for these kinds. */
function checkedRule(body: SimulateBody): void {
  if (body.kinds.length === 0) throw invalid(INSTANT_MESSAGES.kindsRequired, { kinds: INSTANT_MESSAGES.kindsRequired });
  const problems = ruleProblems(body.conditions, body.kinds);
  if (problems.length) throw invalid(problems.join('; '), { conditions: problems.join('; ') });
}

/** The one statement of a simulation (bench/instant-simulator.bench.ts explains it), and the window it covers. */
export function simulationStatement(em: EntityManager, body: SimulateBody, timeZone: string, now: Date): { statement: RawBuilder<SimulationRow>; from: Date } {
  checkedRule(body);
  const from = new Date(now);
  from.setUTCMonth(from.getUTCMonth() - WINDOW_MONTHS);
  const scope: SimulationScope = { kinds: body.kinds, conditions: body.conditions, timeZone, from, to: now };
  const cap = body.dailyCap;
  const ranked = cap === undefined
    ? sql`select * from matched`
    : sql`select * from (select m.*, row_number() over (partition by (m.submit_date at time zone ${timeZone})::date order by m.submit_date, m.id) as day_rank
        from matched m) x where x.day_rank <= ${cap}::int`;
  const statement = sql<SimulationRow>`
    with matched as (${matchedRequestsSql(em, scope)}),
    issued as materialized (${ranked}),
    differed as (
      select i.id, i.request_number, i.certificate_type, i.status, i.submit_date, x.differed_by, x.happened_at, x.note
      from issued i
      cross join lateral (
        (select 'denied' as differed_by, i.completed_date as happened_at, null::text as note where i.status = ${STATUS.denied})
        union all
        (select 'pended', a.date, null from request_activity a
          where a.request_id = i.id and a.status_to = ${STATUS.pendingAdditionalInformation} order by a.date limit 1)
        union all
        (select 'changed', a.date, a.activity_text from request_activity a
          where a.request_id = i.id and a.activity_type = ${FIELD_EDIT_ACTIVITY}
            and exists (select 1 from unnest(${changedLabels(body.kinds)}::text[]) l where strpos(a.activity_text, '"' || l || '"') > 0)
          order by a.date limit 1)
        limit 1) x
    )
    select
      (select count(*)::int from (${factsSql(em, scope, new Set())}) f) as considered,
      (select count(*)::int from issued) as would_issue,
      (select coalesce(json_agg(json_build_object('kind', k.kind, 'month', k.month, 'count', k.n) order by k.month, k.kind), '[]'::json)
        from (select certificate_type as kind, to_char(submit_date at time zone ${timeZone}, 'YYYY-MM') as month, count(*)::int as n
              from issued group by 1, 2) k) as by_kind_month,
      (select percentile_cont(0.5) within group (order by extract(epoch from completed_date - submit_date) / 3600)
        from issued where completed_date is not null) as median_hours,
      (select count(*)::int from differed) as differed_total,
      (select coalesce(json_agg(json_build_object('id', d.id, 'request_number', d.request_number, 'certificate_type', d.certificate_type,
          'status', d.status, 'differed_by', d.differed_by, 'happened_at', d.happened_at, 'note', d.note) order by d.submit_date desc, d.id desc), '[]'::json)
        from (select * from differed order by submit_date desc, id desc limit ${DIFFERED_LISTED}) d) as differed`;
  return { statement, from };
}

/**
 * Runs `work` in a transaction of its own without PostgreSQL's JIT compilation: the planner prices the facts' correlated
 * document count for every request of the window, so at 100,000 requests the statement's estimate passed
 * `jit_above_cost` and compiling it took 1.5 s of the 1.8 s it ran (EXPLAIN ANALYZE), where running it takes 0.3 s.
 */
export async function withoutJit<T>(em: EntityManager, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  return em.transactional(async (tx) => {
    const db = kysely(tx);
    await sql`set local jit = off`.execute(db);
    return work(db);
  });
}

export async function simulateRule(em: EntityManager, body: SimulateBody, timeZone: string, now: Date): Promise<SimulationResult> {
  const started = performance.now();
  const { statement, from } = simulationStatement(em, body, timeZone, now);
  const { rows: [row] } = await withoutJit(em, (db) => statement.execute(db));
  return {
    from, to: now,
    considered: row.considered,
    wouldIssue: row.would_issue,
    byKindMonth: row.by_kind_month,
    medianSavedHours: row.median_hours === null ? null : Math.round(Number(row.median_hours) * 10) / 10,
    differedTotal: row.differed_total,
    differed: row.differed.map((d) => ({
      requestId: d.id, requestNumber: d.request_number, certificateType: d.certificate_type, status: d.status,
      differedBy: d.differed_by, detail: detailOf(d.differed_by, d.happened_at, d.note, timeZone),
    })),
    tookMs: Math.round(performance.now() - started),
  };
}
