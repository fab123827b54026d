/**
 * How a request's workflow is (re-)created from its PostgreSQL row when a command finds no open run: the options of
 * the one update-with-start operation that the API (through temporal/request-workflow-start.ts) and the wake-up
 * activity (activities/wake-ups/wake-request.ts) both send. Plain data, so that both may import it (activities/ may
 * not import temporal/); each wraps it in the client's `WithStartWorkflowOperation`. Never imported by workflow code.
 */
import type { CertificateType, RequestStatus, RequestType } from '../domain';
import { requestWorkflowId, type RequestWorkflowInput } from './request.messages';
import { requestStartSearchAttributes } from './search-attributes';

export interface RequestStartRow {
  id: number;
  requestNumber: number;
  requestType: string;
  certificateType?: string | null;
  status: string;
  lastCommandId?: string | null;
  requesterEmail?: string | null;
}

export function requestStartOptions(request: RequestStartRow, taskQueue: string) {
  const input: RequestWorkflowInput = {
    requestId: request.id,
    requestNumber: request.requestNumber,
    requestType: request.requestType as RequestType,
    certificateType: (request.certificateType ?? null) as CertificateType | null,
    status: request.status as RequestStatus,
    lastCommandId: request.lastCommandId ?? null,
  };
  return {
    workflowId: requestWorkflowId(request.requestNumber),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: requestStartSearchAttributes(request),
  } as const;
}
