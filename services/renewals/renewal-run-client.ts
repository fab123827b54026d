/**
 * THE RENEWAL RUNS' CLIENT: the only code that starts a renewal run's workflow or sends it a message (the office's
 * pause, resume, cancel and "stop waiting for answers"; a requester's answer arriving). Request workflows are reached
 * through their own client (services/requests/request-workflow-client.ts).
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { RENEWAL_MESSAGES } from '../../domain';
import { RENEWAL_RUN_WORKFLOW, renewalAnsweredSignal, renewalControlUpdate, type RenewalControlAction, type RenewalRunInput } from '../../workflows/renewal-run.messages';
import { conflict, unavailable } from '../refusals';

const START_DEADLINE_MS = 5_000;
const CONTROL_DEADLINE_MS = 10_000;

export async function startRenewalRunWorkflow(temporal: Client, taskQueue: string, workflowId: string, input: RenewalRunInput): Promise<void> {
  await temporal.withDeadline(Date.now() + START_DEADLINE_MS, () => temporal.workflow.start(RENEWAL_RUN_WORKFLOW, { taskQueue, workflowId, args: [input] }));
}

/** Answers once the run wrote its new state; a run that ended is a Conflict, a Temporal that does not answer a 503. */
export async function steerRenewalRun(temporal: Client, workflowId: string, action: RenewalControlAction, by: string): Promise<void> {
  try {
    await temporal.withDeadline(Date.now() + CONTROL_DEADLINE_MS, () => temporal.workflow.getHandle(workflowId).executeUpdate(renewalControlUpdate, { args: [{ action, by }] }));
  } catch (error) {
    if (error instanceof WorkflowNotFoundError || error instanceof WorkflowUpdateFailedError || /completed|not found/i.test(String((error as Error).message))) {
      throw conflict(RENEWAL_MESSAGES.notRunning);
    }
    throw Object.assign(unavailable('The renewal service did not confirm this in time. Please reload the page in a moment.'), { cause: error });
  }
}

/** A requester answered: the run looks whether any answer is still awaited. A lost signal only means it waits for its date. */
export async function tellRunOfAnswer(temporal: Client, workflowId: string): Promise<void> {
  await temporal.workflow.getHandle(workflowId).signal(renewalAnsweredSignal).catch(() => undefined);
}
