/**
 * Whether a request just submitted issues itself: the enabled rules covering its kind, evaluated on the request as
 * submitted (domain/instant-rules.ts), and the guards an issue needs (the office switch, the requester not on hold,
 * the free text within the rule, a policy year covering the whole period, the rule's daily cap). Called by the request
 * workflow's activity under the request's own mutex; it decides once per key: a retried or replayed activity finds
 * its row and answers the same, so nothing is issued twice, and a rule edited after the decision changes nothing.
 *
 * A rule that cannot be evaluated any more (a field renamed, a value of the wrong type) is switched off with its
 * problem on the rules page and in the security log; the request goes to a person.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import {
  CERTIFICATE_KINDS, CERTIFICATE_TYPES, fieldsOf as formFieldsOf, certificateCoverageError, checkedAfterIssue, evaluateRule, INSTANT_STOPS, instantActorName, officeDayStart, officeToday, requestFacts,
  ruleProblems, STATUS, unreadFreeText, type RuleGroup,
} from '../../domain';
import { kysely } from '../../db/kysely';
import { recordSecurityEvent } from '../desk/security-log';

export interface InstantDecision {
  issue: boolean;
  /** the actor the approval is recorded by: "Rule: <name> v<version>" */
  actorName: string | null;
  ruleId: number | null;
  stoppedBy: string | null;
}

const NOTHING: InstantDecision = { issue: false, actorName: null, ruleId: null, stoppedBy: null };

/**
 * A request row (as JSON) by the form's field names, as the ORM would read it: MikroORM names a column after its
 * property in snake case, and a timestamp is an instant (JSON writes it in the session's time zone).
 */
const asRequestFields = (row: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(row).map(([column, value]) => {
  const name = column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return [name, INSTANTS.has(name) && typeof value === 'string' ? new Date(value) : value];
}));
const INSTANTS = new Set(['submitDate', ...CERTIFICATE_TYPES.flatMap((k) => formFieldsOf(CERTIFICATE_KINDS[k])).filter((f) => f.kind === 'date').map((f) => f.name)]);

interface Situation {
  known: { outcome: 'issued' | 'stopped'; rule_id: number | null; rule_name: string | null; rule_version: number | null; stopped_by: string | null } | null;
  office_on: boolean;
  request: Record<string, unknown> | null;
  hold_at: Date | null;
  hold_reason: string | null;
  documents: number;
  rules: Array<{ id: number; name: string; version: number; kinds: string[]; conditions: unknown; check_every: number; daily_cap: number }>;
  years: Array<{ startDate: string; endDate: string }>;
}

/** A timestamp as the ORM reads it (an ISO instant in UTC), whatever the session's time zone. */
const utcIso = (column: string) => sql.raw(`to_char("${column}" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * Everything the decision reads, in one statement: the decision made before under this key, the office's switch,
 * the request and its requester's hold, its documents, the enabled rules covering its type and the policy years.
 */
const situationOf = (em: EntityManager, key: string, requestId: number) => sql<Situation>`
  with "candidates" as (
    -- locked until the decision commits: the daily cap and the one-in-N count are read after this statement (a
    -- statement's snapshot starts with it), so they see every issue committed before, whichever worker made it
    select "id", "name", "version", "kinds", "conditions", "check_every", "daily_cap" from "instant_rules"
    where "enabled" and "kinds" ? (select "certificate_type" from "requests" where "id" = ${requestId})
    order by "id" for update
  )
  select
    (select to_jsonb(d) from (select "outcome", "rule_id", "rule_name", "rule_version", "stopped_by" from "instant_decisions" where "key" = ${key}) d) as "known",
    coalesce((select "enabled" from "instant_settings" where "id" = 1), false) as "office_on",
    (select to_jsonb(r) from "requests" r where r."id" = ${requestId}) as "request",
    u."instant_hold_at" as "hold_at", u."instant_hold_reason" as "hold_reason",
    (select count(*)::int from "documents" where "request_id" = ${requestId}) as "documents",
    coalesce((select jsonb_agg(to_jsonb(x) order by x."id") from "candidates" x), '[]'::jsonb) as "rules",
    coalesce((select jsonb_agg(jsonb_build_object('startDate', ${utcIso('start_date')}, 'endDate', ${utcIso('end_date')})) from "policies"), '[]'::jsonb) as "years"
  from (select 1) one
  left join "users" u on u."id" = (select "requester_id" from "requests" where "id" = ${requestId})`.execute(kysely(em));

export async function decideInstantIssue(em: EntityManager, input: { key: string; requestId: number; timeZone: string }): Promise<InstantDecision> {
  return em.transactional(async (tx) => {
    const db = kysely(tx);
    const { rows: [situation] } = await situationOf(tx, input.key, input.requestId);
    const { known } = situation;
    if (known) {
      return {
        issue: known.outcome === 'issued', ruleId: known.rule_id, stoppedBy: known.stopped_by,
        actorName: known.outcome === 'issued' ? instantActorName(known.rule_name!, known.rule_version!) : null,
      };
    }
    if (!situation.office_on) return NOTHING; // the office does not issue instantly: nothing to say on the request's page
    const request = situation.request ? asRequestFields(situation.request) : null;
    if (!request || request.requestType !== 'certificate' || !request.certificateType) return NOTHING;
    const requestId = input.requestId;

    const stop = async (stoppedBy: string, rule?: { id: number; name: string; version: number }): Promise<InstantDecision> => {
      await db.insertInto('instant_decisions').values({
        request_id: requestId, key: input.key, outcome: 'stopped', stopped_by: stoppedBy,
        rule_id: rule?.id ?? null, rule_name: rule?.name ?? null, rule_version: rule?.version ?? null,
      }).execute();
      return { ...NOTHING, stoppedBy };
    };
    if (request.status !== STATUS.submitted) return stop(INSTANT_STOPS.changedMeanwhile);
    if (situation.hold_at) return stop(INSTANT_STOPS.onHold(situation.hold_reason ?? ''));
    if (situation.rules.length === 0) return stop(INSTANT_STOPS.noRule);

    const facts = requestFacts({
      certificateType: request.certificateType as string, employerType: request.employerType as string | null,
      requesterCompany: (request.requesterCompany as string | null) ?? null, submitDate: (request.submitDate as Date | null) ?? null,
      documentCount: situation.documents, fields: request,
    }, input.timeZone);

    let firstStop: { text: string; rule: { id: number; name: string; version: number } } | null = null;
    for (const r of situation.rules) {
      const rule = { id: r.id, name: r.name, version: r.version };
      const label = instantActorName(r.name, r.version);
      const problems = ruleProblems(r.conditions, r.kinds);
      if (problems.length) {
        await switchOffBroken(tx, r.id, r.name, problems.join('; '));
        firstStop ??= { text: INSTANT_STOPS.broken(label, problems.join('; ')), rule };
        continue;
      }
      const conditions = r.conditions as RuleGroup;
      const verdict = evaluateRule(conditions, facts);
      if (!verdict.matches) { firstStop ??= { text: INSTANT_STOPS.noMatch(label, verdict.stoppedBy!), rule }; continue; }
      const freeText = unreadFreeText(conditions, facts);
      if (freeText) return stop(INSTANT_STOPS.freeText(label, freeText), rule);
      const covered = { ...request, requestType: 'certificate' } as Parameters<typeof certificateCoverageError>[0];
      const uncovered = certificateCoverageError(covered, STATUS.approved, situation.years, officeToday(input.timeZone));
      if (uncovered) return stop(INSTANT_STOPS.uncovered(label, uncovered), rule);
      // The rules covering this type are locked since the first statement (`candidates`): this count is exact.
      const dayStart = officeDayStart(officeToday(input.timeZone), input.timeZone);
      const counts = await db.selectFrom('instant_decisions').where('rule_id', '=', r.id).where('outcome', '=', 'issued')
        .select([sql<number>`count(*)::int`.as('total'), sql<number>`(count(*) filter (where "decided_at" >= ${dayStart}))::int`.as('today')])
        .executeTakeFirstOrThrow();
      if (counts.today >= r.daily_cap) return stop(INSTANT_STOPS.dailyCap(label, r.daily_cap), rule);
      await db.insertInto('instant_decisions').values({
        request_id: requestId, key: input.key, outcome: 'issued', rule_id: r.id, rule_name: r.name, rule_version: r.version,
        check_required: checkedAfterIssue(counts.total + 1, r.check_every),
      }).execute();
      return { issue: true, actorName: label, ruleId: r.id, stoppedBy: null };
    }
    return stop(firstStop!.text, firstStop!.rule);
  });
}

async function switchOffBroken(em: EntityManager, ruleId: number, name: string, problem: string): Promise<void> {
  const { numUpdatedRows } = await kysely(em).updateTable('instant_rules').set({ enabled: false, problem, updated_at: new Date(), updated_by: 'Portal' })
    .where('id', '=', ruleId).where('enabled', '=', true).executeTakeFirst();
  if (Number(numUpdatedRows) > 0) await recordSecurityEvent(em, { kind: 'instantRuleBroken', detail: { ruleId, name, problem } });
}
