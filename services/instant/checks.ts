/**
 * What administrators read of instant decisions: a request's latest decision (its page says which rule issued it or
 * which condition stopped it) and the "Check after issue" list, one in N of what each rule issued, until someone
 * confirms it (revoking uses the certificates' own revocation, and puts the requester on hold).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import type { InstantCheckRow, InstantDecisionRecord } from '../../contract/instant.schema';
import { kysely } from '../../db/kysely';
import { notFound } from '../refusals';

const DECISION_COLUMNS = [
  'd.id', 'd.request_id', 'd.decided_at', 'd.outcome', 'd.rule_id', 'd.rule_name', 'd.rule_version', 'd.stopped_by', 'd.check_required',
  'd.checked_at', 'd.checked_by',
] as const;

type DecisionRow = {
  id: number; request_id: number; decided_at: Date; outcome: 'issued' | 'stopped'; rule_id: number | null; rule_name: string | null;
  rule_version: number | null; stopped_by: string | null; check_required: boolean; checked_at: Date | null; checked_by: string | null;
};
const decisionOf = (d: DecisionRow): InstantDecisionRecord => ({
  id: d.id, requestId: d.request_id, decidedAt: d.decided_at, outcome: d.outcome, ruleId: d.rule_id, ruleName: d.rule_name,
  ruleVersion: d.rule_version, stoppedBy: d.stopped_by, checkRequired: d.check_required, checkedAt: d.checked_at, checkedBy: d.checked_by,
});

/** The request's latest decision, or null when no rule was ever asked (the office's switch was off). */
export async function instantDecisionOf(em: EntityManager, requestId: number): Promise<InstantDecisionRecord | null> {
  const row = await kysely(em).selectFrom('instant_decisions as d').select(DECISION_COLUMNS)
    .where('d.request_id', '=', requestId).orderBy('d.decided_at', 'desc').orderBy('d.id', 'desc').executeTakeFirst();
  return row ? decisionOf(row as DecisionRow) : null;
}

/** Instant issues waiting for a check, oldest first, a page at a time (the count by the database). */
export async function instantChecks(em: EntityManager, limit = 25, skip = 0): Promise<{ total: number; limit: number; skip: number; data: InstantCheckRow[] }> {
  const db = kysely(em);
  const pending = db.selectFrom('instant_decisions as d').where('d.check_required', '=', true).where('d.checked_at', 'is', null);
  const [{ total }, rows] = await Promise.all([
    pending.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    pending.innerJoin('requests as r', 'r.id', 'd.request_id')
      .select(DECISION_COLUMNS)
      .select(['r.request_number', 'r.certificate_type', 'r.requester_name', 'r.certificate_holder', 'r.status'])
      .orderBy('d.decided_at').orderBy('d.id').limit(limit).offset(skip).execute(),
  ]);
  return {
    total: Number(total), limit, skip,
    data: rows.map((r) => ({
      ...decisionOf(r as unknown as DecisionRow), requestNumber: r.request_number, certificateType: r.certificate_type,
      requesterName: r.requester_name, certificateHolder: r.certificate_holder, status: r.status,
    })),
  };
}

/** An administrator looked at an instant issue and found it right: off the list, with who and when. */
export async function confirmInstantCheck(em: EntityManager, decisionId: number, by: string): Promise<InstantDecisionRecord> {
  const row = await kysely(em).updateTable('instant_decisions as d')
    .set({ checked_at: sql<Date>`coalesce("checked_at", now())`, checked_by: sql<string>`coalesce("checked_by", ${by})` })
    .where('d.id', '=', decisionId).where('d.check_required', '=', true)
    .returning(DECISION_COLUMNS.map((c) => c.slice(2) as 'id')).executeTakeFirst();
  if (!row) throw notFound('No instant issue waits for a check under this id');
  return decisionOf(row as unknown as DecisionRow);
}

/**
 * A certificate a rule issued was revoked: the requester goes on hold (their next requests wait for a person) and the
 * decision leaves the check list. Answers whether the request had been issued instantly.
 */
export async function instantIssueRevoked(em: EntityManager, requestId: number, by: string): Promise<{ requesterId: number } | null> {
  const db = kysely(em);
  const issued = await db.selectFrom('instant_decisions as d').innerJoin('requests as r', 'r.id', 'd.request_id')
    .select(['d.id', 'r.requester_id']).where('d.request_id', '=', requestId).where('d.outcome', '=', 'issued').executeTakeFirst();
  if (!issued) return null;
  await db.updateTable('instant_decisions').set({ checked_at: sql<Date>`coalesce("checked_at", now())`, checked_by: sql<string>`coalesce("checked_by", ${by})` })
    .where('id', '=', issued.id).execute();
  return { requesterId: issued.requester_id };
}
