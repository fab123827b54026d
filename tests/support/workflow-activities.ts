/**
 * Waiting for what a workflow's activities did, instead of sleeping: "nothing else happened" is proved by the workflow
 * having no activity left to do (none scheduled, running or waiting for a retry), "it kept trying" by its attempt count.
 */
import type { Client } from '@temporalio/client';
import { eventually } from './eventually';

async function pendingActivities(temporal: Client, workflowId: string) {
  return (await temporal.workflow.getHandle(workflowId).describe()).raw.pendingActivities ?? [];
}

/** Resolves once the workflow has no pending activity: no email, letter or record can still go out twice after it. */
export async function activitiesSettled(temporal: Client, workflowId: string, timeoutMs = 30_000): Promise<void> {
  await eventually(async () => (await pendingActivities(temporal, workflowId)).length === 0, timeoutMs, 100);
}

/** Resolves once one of the workflow's pending activities is on attempt `attempt` (the earlier ones failed). */
export async function activityReachedAttempt(temporal: Client, workflowId: string, attempt: number, timeoutMs = 60_000): Promise<void> {
  await eventually(async () => (await pendingActivities(temporal, workflowId)).some((a) => (a.attempt ?? 0) >= attempt), timeoutMs, 250);
}
