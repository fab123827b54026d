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
  certificateCoverageError, checkedAfterIssue, evaluateRule, INSTANT_STOPS, instantActorName, officeDayStart, officeToday, requestFacts,
  ruleProblems, STATUS, unreadFreeText, type RuleGroup,
} from '../../domain';
import { PolicyYearSchema, RequestSchema } from '../../db/entities';
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

export async function decideInstantIssue(em: EntityManager, input: { key: string; requestId: number; timeZone: string }): Promise<InstantDecision> {
  return em.transactional(async (tx) => {
    const db = kysely(tx);
    const known = await db.selectFrom('instant_decisions').select(['outcome', 'rule_id', 'rule_name', 'rule_version', 'stopped_by'])
      .where('key', '=', input.key).executeTakeFirst();
    if (known) {
      return {
        issue: known.outcome === 'issued', ruleId: known.rule_id, stoppedBy: known.stopped_by,
        actorName: known.outcome === 'issued' ? instantActorName(known.rule_name!, known.rule_version!) : null,
      };
    }
    const settings = await db.selectFrom('instant_settings').select('enabled').where('id', '=', 1).executeTakeFirst();
    if (!settings?.enabled) return NOTHING; // the office does not issue instantly: nothing to say on the request's page
    const request = await tx.findOne(RequestSchema, input.requestId);
    if (!request || request.requestType !== 'certificate' || !request.certificateType) return NOTHING;

    const stop = async (stoppedBy: string, rule?: { id: number; name: string; version: number }): Promise<InstantDecision> => {
      await db.insertInto('instant_decisions').values({
        request_id: request.id, key: input.key, outcome: 'stopped', stopped_by: stoppedBy,
        rule_id: rule?.id ?? null, rule_name: rule?.name ?? null, rule_version: rule?.version ?? null,
      }).execute();
      return { ...NOTHING, stoppedBy };
    };
    if (request.status !== STATUS.submitted) return stop(INSTANT_STOPS.changedMeanwhile);
    const requester = await db.selectFrom('users').select(['instant_hold_at', 'instant_hold_reason']).where('id', '=', request.requesterId).executeTakeFirst();
    if (requester?.instant_hold_at) return stop(INSTANT_STOPS.onHold(requester.instant_hold_reason ?? ''));

    const rules = await db.selectFrom('instant_rules').select(['id', 'name', 'version', 'kinds', 'conditions', 'check_every', 'daily_cap'])
      .where('enabled', '=', true).where(sql<boolean>`"kinds" ? ${request.certificateType}`).orderBy('id').execute();
    if (rules.length === 0) return stop(INSTANT_STOPS.noRule);

    const { count: documents } = await db.selectFrom('documents').select(sql<number>`count(*)::int`.as('count'))
      .where('request_id', '=', request.id).executeTakeFirstOrThrow();
    const facts = requestFacts({
      certificateType: request.certificateType, employerType: request.employerType, requesterCompany: request.requesterCompany ?? null,
      submitDate: request.submitDate ?? null, documentCount: Number(documents), fields: request as unknown as Record<string, unknown>,
    }, input.timeZone);

    let firstStop: { text: string; rule: { id: number; name: string; version: number } } | null = null;
    for (const r of rules) {
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
      const uncovered = certificateCoverageError(request, STATUS.approved, await tx.find(PolicyYearSchema, {}), officeToday(input.timeZone));
      if (uncovered) return stop(INSTANT_STOPS.uncovered(label, uncovered), rule);
      // The cap and the one-in-N count hold across every worker: the rule's row is locked while counting and writing.
      await sql`select 1 from "instant_rules" where "id" = ${r.id} for update`.execute(db);
      const dayStart = officeDayStart(officeToday(input.timeZone), input.timeZone);
      const counts = await db.selectFrom('instant_decisions').where('rule_id', '=', r.id).where('outcome', '=', 'issued')
        .select([sql<number>`count(*)::int`.as('total'), sql<number>`(count(*) filter (where "decided_at" >= ${dayStart}))::int`.as('today')])
        .executeTakeFirstOrThrow();
      if (Number(counts.today) >= r.daily_cap) return stop(INSTANT_STOPS.dailyCap(label, r.daily_cap), rule);
      await db.insertInto('instant_decisions').values({
        request_id: request.id, key: input.key, outcome: 'issued', rule_id: r.id, rule_name: r.name, rule_version: r.version,
        check_required: checkedAfterIssue(Number(counts.total) + 1, r.check_every),
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
