/**
 * The API's side of the request workflow: status changes become workflow updates (submit uses update-with-start),
 * and a refused update comes back as a BadRequest in the spec's error shape.
 */
import {
  WithStartWorkflowOperation, WorkflowUpdateFailedError, type Client,
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

async function translateFailures<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) {
      throw badRequest(error.cause?.message ?? error.message);
    }
    if (error instanceof ApiError) throw error;
    const message = (error as Error).message ?? String(error);
    if (/UNAVAILABLE|ECONNREFUSED|connect/i.test(message)) throw unavailable(`Temporal is unavailable: ${message}`);
    throw error;
  }
}

export function submitRequest(temporal: Client, taskQueue: string, request: Request & { requestNumber: number }, actor: Actor): Promise<StatusResult> {
  const input: RequestWorkflowInput = {
    requestId: request.id,
    requestNumber: request.requestNumber,
    requestType: request.requestType as RequestWorkflowInput['requestType'],
    certificateType: (request.certificateType ?? null) as RequestWorkflowInput['certificateType'],
    status: request.status as RequestStatus,
  };
  const startWorkflowOperation = new WithStartWorkflowOperation(REQUEST_WORKFLOW_TYPE, {
    workflowId: requestWorkflowId(request.requestNumber),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: [
      { key: RequestNumberKey, value: request.requestNumber },
      { key: RequestStatusKey, value: request.status },
      { key: RequestTypeKey, value: request.requestType },
    ],
  });
  return translateFailures(() => temporal.workflow.executeUpdateWithStart(submitUpdate, {
    args: [{ actor }],
    updateId: `submit-${randomUUID()}`,
    startWorkflowOperation,
  }));
}

export function changeStatus(
  temporal: Client, requestNumber: number, command: { status: RequestStatus; verified: boolean; internalNotes?: string | null; actor: Actor },
): Promise<StatusResult> {
  const handle = temporal.workflow.getHandle(requestWorkflowId(requestNumber));
  return translateFailures(() => handle.executeUpdate(setStatusUpdate, { args: [command], updateId: `status-${randomUUID()}` }));
}

export function reopenRequest(temporal: Client, requestNumber: number, actor: Actor): Promise<StatusResult> {
  const handle = temporal.workflow.getHandle(requestWorkflowId(requestNumber));
  return translateFailures(() => handle.executeUpdate(reopenUpdate, { args: [{ actor }], updateId: `reopen-${randomUUID()}` }));
}
