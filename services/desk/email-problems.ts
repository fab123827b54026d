/**
 * Emails and letters that did not go out, across requests: failed ones not sent again since (an
 * "Email Failed" row whose Send again has not been queued; a Send again that failed too is listed by itself) within EFFECT_PROBLEMS_WINDOW_DAYS, and
 * pending ones queued longer than EFFECT_DELAYED_AFTER_MS ago. Newest first; the total counted by PostgreSQL. Only
 * effects not sent are read, through partial indexes (Migration20261125000000_effect_problems).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import {
  EFFECT_DELAYED_AFTER_MS, EFFECT_OUTCOME, EFFECT_PROBLEM_LABELS, EFFECT_PROBLEMS_WINDOW_DAYS, effectProblemSubject,
  type EffectProblemState, type RequestType,
} from '../../domain';
import type { EmailProblemsPage, EmailProblemsQuery } from '../../contract/email-problems.schema';
import { kysely } from '../../db/kysely';

interface Row {
  id: number; request_id: number; request_number: number | null; request_type: RequestType; kind: string; template_title: string; state: 'failed' | 'pending';
  recipients: string | null; failure: string | null; since: Date; retry_of: number | null;
}

/**
 * The problems, as one filter both the page (with the request joined) and its count use. A failed effect's audit row
 * (its Send again) is the one that records the effect's failure (`effect_outcome`; the outcome a literal, so the
 * planner matches the partial index on it: Migration20261201100001).
 */
function problems(now: Date, withRequest: boolean) {
  const failedSince = new Date(now.getTime() - EFFECT_PROBLEMS_WINDOW_DAYS * 86_400_000);
  const pendingBefore = new Date(now.getTime() - EFFECT_DELAYED_AFTER_MS);
  return sql`
  from "request_effects" f${withRequest ? sql` join "requests" r on r."id" = f."request_id"` : sql``}
  left join "request_activity" a on a."effect_id" = f."id" and a."effect_outcome" = ${sql.lit(EFFECT_OUTCOME.failed)}
  where (f."state" = 'failed' and f."failed_at" >= ${failedSince} or f."state" = 'pending' and f."created_at" < ${pendingBefore})
    and not exists (select 1 from "request_effects" again where again."retry_of" = a."id")`;
}

export async function countEmailProblems(em: EntityManager, now = new Date()): Promise<number> {
  const { rows: [{ total }] } = await sql<{ total: string }>`select count(*) as total ${problems(now, false)}`.execute(kysely(em));
  return Number(total);
}

export async function emailProblemsPage(em: EntityManager, query: EmailProblemsQuery, now = new Date()): Promise<EmailProblemsPage> {
  const limit = query.$limit ?? 50;
  const skip = query.$skip ?? 0;
  const [rows, total] = await Promise.all([
    limit === 0 ? Promise.resolve([] as Row[]) : sql<Row>`
      select f."id", f."request_id", r."request_number", r."request_type", f."kind", f."template_title", f."state", f."failure",
              coalesce(f."recipients", (select string_agg(x, ', ') from jsonb_array_elements_text(f."snapshot"->'recipients') x)) as "recipients",
              coalesce(f."failed_at", f."created_at") as "since", a."id" as "retry_of"
         ${problems(now, true)}
        order by coalesce(f."failed_at", f."created_at") desc, f."id" desc limit ${Number(limit)} offset ${Number(skip)}`
      .execute(kysely(em.fork())).then(({ rows }) => rows),
    countEmailProblems(em.fork(), now),
  ]);
  return {
    total, limit, skip,
    data: rows.map((r) => {
      const state: EffectProblemState = r.state === 'failed' ? 'failed' : 'delayed';
      return {
        effectId: r.id, requestId: r.request_id, requestNumber: r.request_number, requestType: r.request_type, state, stateLabel: EFFECT_PROBLEM_LABELS[state],
        subject: effectProblemSubject(r.kind, r.template_title), templateTitle: r.template_title, recipients: r.recipients ?? '',
        reason: r.failure, since: new Date(r.since).toISOString(), retryOf: state === 'failed' ? r.retry_of : null,
      };
    }),
  };
}

/** Seconds since the oldest email or letter still waiting to go out was queued; null when none waits. */
export async function oldestPendingEffectSeconds(em: EntityManager, now = new Date()): Promise<number | null> {
  const { oldest } = await kysely(em).selectFrom('request_effects')
    .select((eb) => eb.fn.min('created_at').as('oldest')).where('state', '=', 'pending').executeTakeFirstOrThrow();
  return oldest ? Math.max(0, Math.round((now.getTime() - new Date(oldest).getTime()) / 1000)) : null;
}
