/**
 * The update-with-start operation that (re-)creates a request's workflow from its PostgreSQL row when a command finds
 * no open run (api/services/request-workflows.ts, resume-requests.ts). Its options are workflows/request-start.ts,
 * which the wake-up activity wraps the same way. Client-side only: never imported by workflow code.
 */
import { WithStartWorkflowOperation } from '@temporalio/client';
import { REQUEST_WORKFLOW_TYPE } from '../workflows/request.messages';
import { requestStartOptions, type RequestStartRow } from '../workflows/request-start';

export type { RequestStartRow };

export const requestStartOperation = (request: RequestStartRow, taskQueue: string) =>
  new WithStartWorkflowOperation(REQUEST_WORKFLOW_TYPE, requestStartOptions(request, taskQueue));
