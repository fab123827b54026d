/**
 * Sends one waiting request the `wake` update of its own workflow, so the lifecycle machine judges the change and
 * the workflow records it (audit row, Request Returned to Review email) like any other. Update-with-start: a
 * request whose run has ended (terminated, lost) is re-created from PostgreSQL first, as the API does
 * (api/services/request-workflows.ts `startOperation`; activities may not import api/, hence the copy below).
 */
import { Context } from '@temporalio/activity';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Orm } from '../../db/orm';
import { RequestSchema } from '../../db/entities';
import { WAITING_STATUS, WAKE_UP_ACTOR, wakeCommandIdOf, type CertificateType, type RequestStatus, type RequestType } from '../../domain';
import { REQUEST_WORKFLOW_TYPE, requestWorkflowId, wakeUpdate, type RequestWorkflowInput } from '../../workflows/request.messages';
import { requestStartSearchAttributes } from '../../workflows/search-attributes';
import type { WakeUpActivities } from '../wake-up-activities.types';

export function wakeRequestActivity(deps: { orm: Orm }): WakeUpActivities['wakeRequest'] {
  return async function wakeRequest(order) {
    const request = await deps.orm.em.fork().findOne(RequestSchema, order.requestId);
    if (!request || request.status !== WAITING_STATUS[order.reason]) return 'not-waiting';
    const commandId = wakeCommandIdOf(order.requestNumber, order.reason, order.sourceId, request.version);
    const input: RequestWorkflowInput = {
      requestId: request.id, requestNumber: request.requestNumber!, requestType: request.requestType as RequestType,
      certificateType: (request.certificateType ?? null) as CertificateType | null, status: request.status as RequestStatus,
      lastCommandId: request.lastCommandId ?? null,
    };
    const { client, info } = Context.current();
    try {
      await client.workflow.executeUpdateWithStart(wakeUpdate, {
        args: [{ reason: order.reason, note: order.note, actor: { ...WAKE_UP_ACTOR }, commandId }],
        updateId: commandId,
        startWorkflowOperation: new WithStartWorkflowOperation(REQUEST_WORKFLOW_TYPE, {
          workflowId: requestWorkflowId(request.requestNumber!),
          taskQueue: info.taskQueue,
          args: [input],
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'ALLOW_DUPLICATE',
          typedSearchAttributes: requestStartSearchAttributes({ ...request, requestNumber: request.requestNumber! }),
        }),
      });
      return 'woken';
    } catch (error) {
      // The machine refused: the request moved on meanwhile (an administrator changed it, another cause woke it).
      if (error instanceof WorkflowUpdateFailedError) return 'not-waiting';
      throw error;
    }
  };
}
