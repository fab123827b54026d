/**
 * Workflow interceptors (registered through WORKFLOW_INTERCEPTOR_MODULES, worker/request-worker.ts): the `reqId`
 * of the command being handled follows it into the activities it schedules and into the workflow's own log lines.
 * A start, update or signal runs in its own async context, so two commands interleaving at an await keep their ids.
 * Headers are not part of the determinism check: histories recorded without them replay unchanged (replay.test.ts).
 */
import {
  AsyncLocalStorage,
  type ActivityInput, type DisposeInput, type GetLogAttributesInput, type LocalActivityInput, type Next, type SignalInput,
  type UpdateInput, type WorkflowExecuteInput, type WorkflowInboundCallsInterceptor, type WorkflowInterceptors,
  type WorkflowInternalsInterceptor, type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import { REQ_ID, reqIdOf, withReqId } from './log-header';

const current = new AsyncLocalStorage<string | undefined>();

/** The `reqId` of the command whose handler is running now (undefined on a clock's or a replayed start's path). */
export const currentReqId = (): string | undefined => current.getStore();

/**
 * Runs `fn` as part of the command `reqId` (an effect queued by a command and carried out by the main loop), or of
 * no command when undefined (a clock falling due: not the command that started the run).
 */
export const asPartOf = <T>(reqId: string | undefined, fn: () => T): T => current.run(reqId, fn);

class ReqIdInterceptor implements WorkflowInboundCallsInterceptor, WorkflowOutboundCallsInterceptor, WorkflowInternalsInterceptor {
  execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>) {
    return asPartOf(reqIdOf(input.headers), () => next(input));
  }
  handleUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>) {
    return asPartOf(reqIdOf(input.headers), () => next(input));
  }
  handleSignal(input: SignalInput, next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>) {
    return asPartOf(reqIdOf(input.headers), () => next(input));
  }
  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>) {
    return next({ ...input, headers: withReqId(input.headers, currentReqId()) });
  }
  scheduleLocalActivity(input: LocalActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>) {
    return next({ ...input, headers: withReqId(input.headers, currentReqId()) });
  }
  getLogAttributes(input: GetLogAttributesInput, next: Next<WorkflowOutboundCallsInterceptor, 'getLogAttributes'>) {
    const reqId = currentReqId();
    return next(reqId ? { ...input, [REQ_ID]: reqId } : input);
  }
  dispose(input: DisposeInput, next: Next<WorkflowInternalsInterceptor, 'dispose'>) {
    // The SDK's advice: storage outlives an evicted workflow unless disabled (a leak per cached workflow otherwise).
    current.disable();
    next(input);
  }
}

export const interceptors = (): WorkflowInterceptors => {
  const interceptor = new ReqIdInterceptor();
  return { inbound: [interceptor], outbound: [interceptor], internals: [interceptor] };
};
