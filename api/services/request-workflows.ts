/**
 * The API's side of the request workflow: status changes become workflow updates (submit uses update-with-start),
 * and a refused update comes back as a BadRequest in the spec's error shape.
 */
import {
  WithStartWorkflowOperation, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError, type Client,
} from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { Request } from '../../db/entities';
import type { RequestStatus } from '../../domain';
import {
  REQUEST_WORKFLOW_TYPE, reopenUpdate, requestWorkflowId, setStatusUpdate, submitUpdate,
  type Actor, type RequestWorkflowInput, type StatusResult,
} from '../../workflows/request.messages';
import { RequestNumberKey, RequestStatusKey, RequestTypeKey } from '../../workflows/search-attributes';
import { ApiError, badRequest, unavailable } from '../errors';

/**
 * A status change waits at most `config.workflowAnswerTimeoutMs` for the worker. Past it the browser hears 503.
 * Nothing is lost and nothing doubles: Temporal keeps the admitted update until a worker takes it, the status in
 * PostgreSQL changes only when the workflow applies it, and a repeated submit reuses the number and the workflow
 * and answers like the first (tests/workflows/worker-down.test.ts).
 */
export const NO_ANSWER_MESSAGE = 'The request service did not confirm this change in time. It may still go through: please reload this page in a moment before trying again.';

export interface WorkflowAccess { temporal: Client; taskQueue: string; answerTimeoutMs: number }

async function translateFailures<T>(access: WorkflowAccess, call: () => Promise<T>): Promise<T> {
  try {
    return await access.temporal.withDeadline(Date.now() + access.answerTimeoutMs, call);
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) {
      throw badRequest(error.cause?.message ?? error.message);
    }
    if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError || /DEADLINE_EXCEEDED/.test(String((error as Error).message))) {
      throw unavailable(NO_ANSWER_MESSAGE);
    }
    if (error instanceof ApiError) throw error;
    const message = (error as Error).message ?? String(error);
    if (/UNAVAILABLE|ECONNREFUSED|connect/i.test(message)) throw unavailable(`Temporal is unavailable: ${message}`);
    throw error;
  }
}

export function submitRequest(access: WorkflowAccess, request: Request & { requestNumber: number }, actor: Actor): Promise<StatusResult> {
  const input: RequestWorkflowInput = {
    requestId: request.id,
    requestNumber: request.requestNumber,
    requestType: request.requestType as RequestWorkflowInput['requestType'],
    certificateType: (request.certificateType ?? null) as RequestWorkflowInput['certificateType'],
    status: request.status as RequestStatus,
  };
  const startWorkflowOperation = new WithStartWorkflowOperation(REQUEST_WORKFLOW_TYPE, {
    workflowId: requestWorkflowId(request.requestNumber),
    taskQueue: access.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: [
      { key: RequestNumberKey, value: request.requestNumber },
      { key: RequestStatusKey, value: request.status },
      { key: RequestTypeKey, value: request.requestType },
    ],
  });
  return translateFailures(access, () => access.temporal.workflow.executeUpdateWithStart(submitUpdate, {
    args: [{ actor }],
    updateId: `submit-${randomUUID()}`,
    startWorkflowOperation,
  }));
}

export function changeStatus(
  access: WorkflowAccess, requestNumber: number, command: { status: RequestStatus; verified: boolean; internalNotes?: string | null; actor: Actor },
): Promise<StatusResult> {
  const handle = access.temporal.workflow.getHandle(requestWorkflowId(requestNumber));
  return translateFailures(access, () => handle.executeUpdate(setStatusUpdate, { args: [command], updateId: `status-${randomUUID()}` }));
}

export function reopenRequest(access: WorkflowAccess, requestNumber: number, actor: Actor): Promise<StatusResult> {
  const handle = access.temporal.workflow.getHandle(requestWorkflowId(requestNumber));
  return translateFailures(access, () => handle.executeUpdate(reopenUpdate, { args: [{ actor }], updateId: `reopen-${randomUUID()}` }));
}
