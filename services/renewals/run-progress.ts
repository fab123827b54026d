/**
 * A renewal run as the office reads it: its facts and its progress, counted by PostgreSQL from its items and their
 * effects (done: the letter and email went out; waiting: queued; failed: refused, or the email failed for good).
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/kysely';
import { policyYearLabel, renewalPercent, type RenewalMode, type RenewalRunState } from '../../domain';

/** The state a run resumes in: asking while it still waits for answers, running after. */
export const runningStateAfter = (phase: string): RenewalRunState => (phase === 'ask' || phase === 'wait' ? 'asking' : 'running');

const dayText = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value)).slice(0, 10);

interface RunRow {
  id: number; policy_year_id: number; start_date: Date; end_date: Date; mode: RenewalMode; answer_by: string | null; coverage_from: string; coverage_to: string;
  state: RenewalRunState; created_by: string; created_at: Date; finished_at: Date | null;
  total: number; done: number; waiting: number; failed: number; remaining: number; not_renewed: number; asked: number;
}

const runsQuery = (where: ReturnType<typeof sql>, limit: number) => sql<RunRow>`
  select r.id, r.policy_year_id, p.start_date, p.end_date, r.mode, r.answer_by::text as answer_by, r.coverage_from::text as coverage_from,
    r.coverage_to::text as coverage_to, r.state, r.created_by, r.created_at, r.finished_at, c.*
  from renewal_runs r join policies p on p.id = r.policy_year_id
  cross join lateral (
    select count(*)::int as total,
      count(*) filter (where i.state = 'renewed' and e.state = 'sent')::int as done,
      count(*) filter (where i.state = 'renewed' and (e.state is null or e.state = 'pending'))::int as waiting,
      count(*) filter (where i.state = 'failed' or (i.state = 'renewed' and e.state = 'failed'))::int as failed,
      count(*) filter (where i.state = 'pending')::int as remaining,
      count(*) filter (where i.state in ('declined', 'unanswered', 'skipped', 'cancelled'))::int as not_renewed,
      count(*) filter (where i.state = 'asked')::int as asked
    from renewal_items i left join request_effects e on e.idempotency_key = i.effect_key
    where i.run_id = r.id
  ) c
  where ${where} order by r.id desc limit ${limit}`;

function runRecord(row: RunRow) {
  const progress = {
    total: row.total, done: row.done, waiting: row.waiting, failed: row.failed, remaining: row.remaining + row.asked,
    notRenewed: row.not_renewed, asked: row.asked,
  };
  return {
    id: row.id,
    policyYear: { id: row.policy_year_id, label: policyYearLabel({ startDate: row.start_date, endDate: row.end_date }), startDate: dayText(row.start_date), endDate: dayText(row.end_date) },
    mode: row.mode, answerBy: row.answer_by, window: { from: row.coverage_from, to: row.coverage_to }, state: row.state,
    createdBy: row.created_by, createdAt: row.created_at, finishedAt: row.finished_at,
    progress: { ...progress, percent: renewalPercent({ ...progress, remaining: progress.remaining }) },
  };
}
export type RenewalRunRecord = ReturnType<typeof runRecord>;

export async function listRenewalRuns(db: Kysely<Database>): Promise<RenewalRunRecord[]> {
  const { rows } = await runsQuery(sql`true`, 50).execute(db);
  return rows.map(runRecord);
}

export async function renewalRun(db: Kysely<Database>, id: number): Promise<RenewalRunRecord | null> {
  const { rows: [row] } = await runsQuery(sql`r.id = ${id}`, 1).execute(db);
  return row ? runRecord(row) : null;
}
