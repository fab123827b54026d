/**
 * How a request's workflow is (re-)created from its PostgreSQL row when a command finds no open run: the one
 * update-with-start operation both the API (api/services/request-workflows.ts) and the wake-up activity
 * (activities/wake-ups/wake-request.ts) use. Client-side only: never imported by workflow code.
 */
import { WithStartWorkflowOperation } from '@temporalio/client';
import type { CertificateType, RequestStatus, RequestType } from '../domain';
import { REQUEST_WORKFLOW_SHAPE, REQUEST_WORKFLOW_TYPE, requestWorkflowId, type RequestWorkflowInput } from '../workflows/request.messages';
import { requestStartSearchAttributes } from '../workflows/search-attributes';

export interface RequestStartRow {
  id: number;
  requestNumber: number;
  requestType: string;
  certificateType?: string | null;
  status: string;
  lastCommandId?: string | null;
  requesterEmail?: string | null;
}

export function requestStartOperation(request: RequestStartRow, taskQueue: string) {
  const input: RequestWorkflowInput = {
    shape: REQUEST_WORKFLOW_SHAPE,
    requestId: request.id,
    requestNumber: request.requestNumber,
    requestType: request.requestType as RequestType,
    certificateType: (request.certificateType ?? null) as CertificateType | null,
    status: request.status as RequestStatus,
    lastCommandId: request.lastCommandId ?? null,
  };
  return new WithStartWorkflowOperation(REQUEST_WORKFLOW_TYPE, {
    workflowId: requestWorkflowId(request.requestNumber),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: requestStartSearchAttributes(request),
  });
}
