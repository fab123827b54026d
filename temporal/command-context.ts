/**
 * One id per command in every log line it causes, the API's half. The API runs each HTTP call
 * inside `commandContext` with Fastify's `reqId` (api/plugins/request-id.ts); the client interceptor below copies it
 * into the Temporal headers of every start, update and signal; workflows/log-context.ts hands it on to the activities
 * they schedule; worker/worker-logging.ts puts it in the worker's log lines. Client-side only: the API must not
 * load the worker package (its bundler alone is tens of megabytes of heap).
 */
import type { Next, WorkflowClientInterceptor, WorkflowSignalInput, WorkflowSignalWithStartInput, WorkflowStartInput, WorkflowStartUpdateInput, WorkflowStartUpdateWithStartInput } from '@temporalio/client';
import { AsyncLocalStorage } from 'node:async_hooks';
import { withReqId } from '../workflows/log-header';

export const commandContext = new AsyncLocalStorage<{ reqId: string }>();

const reqIdNow = () => commandContext.getStore()?.reqId;

/** Copies the current `reqId` into the headers of every call that reaches a workflow. */
export const reqIdClientInterceptor: WorkflowClientInterceptor = {
  start: (input: WorkflowStartInput, next: Next<WorkflowClientInterceptor, 'start'>) =>
    next({ ...input, headers: withReqId(input.headers, reqIdNow()) }),
  startUpdate: (input: WorkflowStartUpdateInput, next: Next<WorkflowClientInterceptor, 'startUpdate'>) =>
    next({ ...input, headers: withReqId(input.headers, reqIdNow()) }),
  startUpdateWithStart: (input: WorkflowStartUpdateWithStartInput, next: Next<WorkflowClientInterceptor, 'startUpdateWithStart'>) =>
    next({ ...input, workflowStartHeaders: withReqId(input.workflowStartHeaders, reqIdNow()), updateHeaders: withReqId(input.updateHeaders, reqIdNow()) }),
  signal: (input: WorkflowSignalInput, next: Next<WorkflowClientInterceptor, 'signal'>) =>
    next({ ...input, headers: withReqId(input.headers, reqIdNow()) }),
  signalWithStart: (input: WorkflowSignalWithStartInput, next: Next<WorkflowClientInterceptor, 'signalWithStart'>) =>
    next({ ...input, headers: withReqId(input.headers, reqIdNow()) }),
};
