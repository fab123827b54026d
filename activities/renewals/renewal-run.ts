/**
 * The renewal run's activities (workflows/renewal-run.workflow.ts). Items live in PostgreSQL (renewal_items); each
 * batch takes the next ones by state and asks their request workflows through the one request-workflow client, so a
 * batch retried after a worker died repeats the same update ids and renews nothing twice.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { sql } from 'kysely';
import type { AppConfig } from '../../config/app-config';
import { kysely } from '../../db/kysely';
import type { Orm } from '../../db/orm';
import { officeDayAfter, type RenewalRunState } from '../../domain';
import { Refusal, asApplicationFailure } from '../../services/refusals';
import { askRenewal, renewRequest, type WorkflowAccess } from '../../services/requests/request-workflow-client';
import { runningStateAfter } from '../../services/renewals/run-progress';
import type { RenewalRunActivities } from '../../workflows/renewal-run-activities.types';

/** How long one request's workflow may take to answer before the batch is retried. */
const ANSWER_TIMEOUT_MS = 30_000;
/** Requests asked at once inside a batch: the request workflows work in parallel, the worker's slots stay free. */
const IN_PARALLEL = 6;

interface ItemRow { id: number; request_id: number; request_number: number; request_type: string; certificate_type: string | null; status: string; last_command_id: string | null; requester_email: string | null }

const nextItems = (runId: number, state: 'asked' | 'pending', limit: number, extra: 'unasked' | 'any') => sql<ItemRow>`
  select i.id, i.request_id, r.request_number, r.request_type, r.certificate_type, r.status, r.last_command_id, r.requester_email
  from renewal_items i join requests r on r.id = i.request_id
  where i.run_id = ${runId} and i.state = ${state} ${extra === 'unasked' ? sql`and i.answer_token_hash is null and i.outcome is null` : sql``}
  order by i.id limit ${limit}`;

async function inParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(IN_PARALLEL, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

const startRow = (row: ItemRow) => ({
  id: row.request_id, requestNumber: row.request_number, requestType: row.request_type, certificateType: row.certificate_type,
  status: row.status, lastCommandId: row.last_command_id, requesterEmail: row.requester_email,
});

/** A refusal is the item's outcome (failed); a moment's unavailability is the batch's retry. */
function outcomeOf(error: unknown): string {
  if (error instanceof Refusal) {
    if (error.kind === 'unavailable') throw asApplicationFailure(error);
    return error.message;
  }
  throw error;
}

export function renewalRunActivities(deps: { orm: Orm; config: AppConfig }): RenewalRunActivities {
  const db = () => kysely(deps.orm.em.fork());
  const access = (): WorkflowAccess => {
    const { client, info } = Context.current();
    return { temporal: client, taskQueue: info.taskQueue, answerTimeoutMs: ANSWER_TIMEOUT_MS };
  };
  const actorOf = async (runId: number) => {
    const run = await db().selectFrom('renewal_runs').select(['created_by', 'created_by_user_id']).where('id', '=', runId).executeTakeFirst();
    return { name: run?.created_by ?? 'Renewal run', email: '', ...(run?.created_by_user_id ? { userId: run.created_by_user_id } : {}) };
  };

  return {
    async loadRenewalRun({ runId }) {
      const run = await db().selectFrom('renewal_runs').select(['mode', 'state', sql<string | null>`answer_by::text`.as('answer_by')]).where('id', '=', runId).executeTakeFirst();
      if (!run) return null;
      const timeZone = deps.config.clockPolicy.calendar.timeZone;
      return {
        mode: run.mode, state: run.state,
        // Answers are taken through the whole answer date, office time.
        answerDeadline: run.answer_by ? officeDayAfter(run.answer_by, timeZone).toISOString() : null,
        perSecond: deps.config.renewals.perSecond, maxWaiting: deps.config.renewals.maxWaiting,
      };
    },

    async askRenewalBatch({ runId, limit }) {
      const { rows } = await nextItems(runId, 'asked', limit, 'unasked').execute(db());
      const actor = await actorOf(runId);
      await inParallel(rows, async (row) => {
        let outcome: string | null = null;
        try {
          const { queued } = await askRenewal(access(), startRow(row), { runId, actor });
          if (!queued) outcome = 'not asked: the request changed meanwhile';
        } catch (error) {
          outcome = outcomeOf(error);
        }
        // Asked (its token is stored by the request's activity) or refused: either way it is not taken again.
        if (outcome) await db().updateTable('renewal_items').set({ state: 'failed', outcome, updated_at: new Date() }).where('id', '=', row.id).execute();
        Context.current().heartbeat();
      });
      return rows.length;
    },

    async countAwaitedAnswers({ runId }) {
      const row = await db().selectFrom('renewal_items').select((eb) => eb.fn.countAll<number>().as('n')).where('run_id', '=', runId).where('state', '=', 'asked').executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async closeRenewalQuestions({ runId }) {
      await db().transaction().execute(async (tx) => {
        await tx.updateTable('renewal_items').set({ state: 'unanswered', outcome: 'No answer by the date', updated_at: new Date() })
          .where('run_id', '=', runId).where('state', '=', 'asked').execute();
        await tx.updateTable('renewal_runs').set({ state: 'running' }).where('id', '=', runId).where('state', '=', 'asking').execute();
      });
    },

    async renewBatch({ runId, limit }) {
      const run = await db().selectFrom('renewal_runs').select(['policy_year_id']).where('id', '=', runId).executeTakeFirst();
      if (!run) throw ApplicationFailure.nonRetryable(`Renewal run ${runId} does not exist`, 'NotFound');
      const waitingNow = await waitingLetters(runId);
      const room = Math.min(limit, deps.config.renewals.maxWaiting - waitingNow);
      const { rows } = room > 0 ? await nextItems(runId, 'pending', room, 'any').execute(db()) : { rows: [] as ItemRow[] };
      const actor = await actorOf(runId);
      await inParallel(rows, async (row) => {
        try {
          const result = await renewRequest(access(), startRow(row), { policyYearId: run.policy_year_id, runId, actor });
          // Another run renewed it for the year (its update, answered again for this one): skipped here, counted there.
          const ours = result.outcome === 'renewed' && result.byRunId === runId;
          await db().updateTable('renewal_items').set(ours
            ? { state: 'renewed', effect_key: result.effectKey, outcome: null, updated_at: new Date() }
            : { state: 'skipped', outcome: result.note ?? `Renewed by run ${result.byRunId ?? 'another run'}`, updated_at: new Date() }).where('id', '=', row.id).execute();
        } catch (error) {
          await db().updateTable('renewal_items').set({ state: 'failed', outcome: outcomeOf(error), updated_at: new Date() }).where('id', '=', row.id).execute();
        }
        Context.current().heartbeat();
      });
      const remaining = await db().selectFrom('renewal_items').select((eb) => eb.fn.countAll<number>().as('n')).where('run_id', '=', runId).where('state', '=', 'pending').executeTakeFirstOrThrow();
      return { handled: rows.length, waiting: await waitingLetters(runId), remaining: Number(remaining.n) };
    },

    async noteRenewalControl({ runId, action, phase }) {
      const to: Record<string, RenewalRunState | null> = {
        pause: 'paused', resume: runningStateAfter(phase), cancel: null, 'close-asking': null,
      };
      const state = to[action];
      // Cancel and "stop waiting" change course only: the run writes its state when it gets there.
      const row = state
        ? await db().updateTable('renewal_runs').set({ state }).where('id', '=', runId).returning(['state']).executeTakeFirst()
        : await db().selectFrom('renewal_runs').select(['state']).where('id', '=', runId).executeTakeFirst();
      return row?.state ?? 'cancelled';
    },

    async finishRenewalRun({ runId, cancelled }) {
      return db().transaction().execute(async (tx) => {
        if (cancelled) {
          await tx.updateTable('renewal_items').set({ state: 'cancelled', outcome: 'The run was cancelled first', updated_at: new Date() })
            .where('run_id', '=', runId).where('state', 'in', ['asked', 'pending']).execute();
        }
        const state: RenewalRunState = cancelled ? 'cancelled' : 'finished';
        await tx.updateTable('renewal_runs').set({ state, finished_at: new Date() }).where('id', '=', runId).where('finished_at', 'is', null).execute();
        return state;
      });
    },
  };

  /** The run's renewed certificates whose letter and email have not gone out yet. */
  async function waitingLetters(runId: number): Promise<number> {
    const { rows: [row] } = await sql<{ n: number }>`select count(*)::int as n from renewal_items i join request_effects e on e.idempotency_key = i.effect_key
      where i.run_id = ${runId} and i.state = 'renewed' and e.state = 'pending'`.execute(db());
    return row.n;
  }
}
