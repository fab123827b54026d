/**
 * The wake-up sweep: a Temporal Schedule runs `wakeUpSweepWorkflow` every few minutes, and once at
 * every worker start. It wakes any waiting request whose cause (a policy year, a directory person) changed after it
 * started waiting and was not woken: the API died between its commit and the wake-up's start, or Temporal was down.
 * Durable like the rest: the Schedule lives in Temporal and is visible in its UI (Schedules, `wake-up-sweep`).
 */
import { ScheduleAlreadyRunning, type Client } from '@temporalio/client';
import { WAKE_UP_SWEEP_SCHEDULE_ID, WAKE_UP_SWEEP_WORKFLOW } from '../workflows/wake-up.messages';

export async function ensureWakeUpSweepSchedule(client: Client, taskQueue: string, everyMinutes = 5): Promise<void> {
  const action = { type: 'startWorkflow' as const, workflowType: WAKE_UP_SWEEP_WORKFLOW, taskQueue, args: [] as [] };
  try {
    await client.schedule.create({
      scheduleId: WAKE_UP_SWEEP_SCHEDULE_ID,
      spec: { intervals: [{ every: `${everyMinutes} minutes` }] },
      action,
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    // The task queue may have changed with the configuration: keep the Schedule pointing at this worker's.
    await client.schedule.getHandle(WAKE_UP_SWEEP_SCHEDULE_ID).update((previous) => ({ ...previous, action: { ...previous.action, ...action } }));
  }
  await client.schedule.getHandle(WAKE_UP_SWEEP_SCHEDULE_ID).trigger('SKIP');
}
