/**
 * After a save that may wake waiting requests (a policy year, a directory person), the API starts the wake-up
 * workflow (workflows/wake-up.workflow.ts); it never changes a status itself. The start comes after the commit: if
 * the API dies in between, or Temporal does not answer, the save stands and the sweep Schedule
 * (worker/wake-up-sweep.ts) wakes the requests at its next run. So a failed start is logged, never the caller's error.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WAKE_UP_WORKFLOW, wakeUpWorkflowId, type WakeUpInput } from '../../workflows/wake-up.messages';

export interface WakeUps { start(input: WakeUpInput, changedAt: Date): Promise<void> }

/** How long a save waits for Temporal to take the start before leaving the wake-up to the sweep. */
const START_DEADLINE_MS = 3000;

/** Where a failed start is told (the door's log: the API's pino logger has this shape). */
interface WarningLog { warn(detail: Record<string, unknown>, message: string): void }

export function wakeUpsOf(app: { temporal: Client; config: { taskQueue: string }; log: WarningLog }): WakeUps {
  return {
    async start(input, changedAt) {
      const workflowId = wakeUpWorkflowId(input, changedAt);
      try {
        await app.temporal.withDeadline(Date.now() + START_DEADLINE_MS, () => app.temporal.workflow.start(WAKE_UP_WORKFLOW, {
          taskQueue: app.config.taskQueue, workflowId, args: [input],
        }));
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) return;
        app.log.warn({ err: error, workflowId }, 'wake-up not started; the sweep will catch it');
      }
    },
  };
}
