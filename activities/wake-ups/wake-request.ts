/**
 * Sends one waiting request the `wake` update of its own workflow, so the lifecycle machine judges the change and
 * the workflow records it (audit row, Request Returned to Review email) like any other. Update-with-start: a
 * request whose run has ended (terminated, lost) is re-created from PostgreSQL first, as the API does (the same
 * options: workflows/request-start.ts; activities/ may not import temporal/, which sits above it).
 */
import { Context } from '@temporalio/activity';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Orm } from '../../db/orm';
import { RequestSchema } from '../../db/entities';
import { WAITING_STATUS, WAKE_UP_ACTOR, wakeCommandIdOf } from '../../domain';
import { REQUEST_WORKFLOW_TYPE, wakeUpdate } from '../../workflows/request.messages';
import { requestStartOptions } from '../../workflows/request-start';
import type { WakeUpActivities } from '../../workflows/wake-up-activities.types';

export function wakeRequestActivity(deps: { orm: Orm }): WakeUpActivities['wakeRequest'] {
  return async function wakeRequest(order) {
    const request = await deps.orm.em.fork().findOne(RequestSchema, order.requestId);
    if (!request || request.status !== WAITING_STATUS[order.reason]) return 'not-waiting';
    const commandId = wakeCommandIdOf(order.requestNumber, order.reason, order.sourceId, request.version);
    const { client, info } = Context.current();
    try {
      await client.workflow.executeUpdateWithStart(wakeUpdate, {
        args: [{ reason: order.reason, note: order.note, actor: { ...WAKE_UP_ACTOR }, commandId }],
        updateId: commandId,
        startWorkflowOperation: new WithStartWorkflowOperation(
          REQUEST_WORKFLOW_TYPE, requestStartOptions({ ...request, requestNumber: request.requestNumber! }, info.taskQueue)),
      });
      return 'woken';
    } catch (error) {
      // The machine refused: the request moved on meanwhile (an administrator changed it, another cause woke it).
      if (error instanceof WorkflowUpdateFailedError) return 'not-waiting';
      throw error;
    }
  };
}
