/**
 * Sends one waiting request the `wake` command of its own workflow (through the request workflows' client,
 * services/requests/request-workflow-client.ts), so the lifecycle machine judges the change and the workflow records
 * it (audit row, Request Returned to Review email) like any other. A request whose run has ended (terminated, lost)
 * is re-created from PostgreSQL first, as for every command.
 */
import { Context } from '@temporalio/activity';
import type { Orm } from '../../db/orm';
import { RequestSchema } from '../../db/entities';
import { WAITING_STATUS, WAKE_UP_ACTOR, wakeCommandIdOf } from '../../domain';
import { Refusal, asApplicationFailure } from '../../services/refusals';
import { wakeRequest } from '../../services/requests/request-workflow-client';
import type { WakeUpActivities } from '../../workflows/wake-up-activities.types';

/** How long one wake-up waits for its request's workflow before the activity is retried. */
const ANSWER_TIMEOUT_MS = 30_000;

export function wakeRequestActivity(deps: { orm: Orm }): WakeUpActivities['wakeRequest'] {
  return async function wakeRequestNow(order) {
    const request = await deps.orm.em.fork().findOne(RequestSchema, order.requestId);
    if (!request || request.status !== WAITING_STATUS[order.reason]) return 'not-waiting';
    const commandId = wakeCommandIdOf(order.requestNumber, order.reason, order.sourceId, request.version);
    const { client, info } = Context.current();
    try {
      await wakeRequest(
        { temporal: client, taskQueue: info.taskQueue, answerTimeoutMs: ANSWER_TIMEOUT_MS },
        { ...request, requestNumber: request.requestNumber! },
        { reason: order.reason, note: order.note, actor: { ...WAKE_UP_ACTOR }, commandId },
      );
      return 'woken';
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      // Not there for long: asked again by Temporal's retry.
      if (error.kind === 'unavailable') throw asApplicationFailure(error);
      // The machine refused: the request moved on meanwhile (an administrator changed it, another cause woke it).
      return 'not-waiting';
    }
  };
}
