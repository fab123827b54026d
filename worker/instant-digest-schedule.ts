/**
 * The office's daily digest of instant certificates: a Temporal Schedule starts `instantDigestWorkflow` every morning
 * in the office's time zone, for the office day before. Durable like the wake-up sweep's (worker/wake-up-sweep.ts): the
 * Schedule lives in Temporal (Schedules, `instant-digest`); a morning the worker or Temporal missed is caught up within
 * a day, and a day run twice sends once (activities/instant/send-instant-digest.ts).
 */
import { ScheduleAlreadyRunning, type Client, type ScheduleOptions } from '@temporalio/client';
import { INSTANT_DIGEST_SCHEDULE_ID, INSTANT_DIGEST_WORKFLOW, type InstantDigestInput } from '../workflows/instant-digest.messages';

/** Early enough to be read with the morning's mail, late enough that yesterday is over in every office zone. */
export const INSTANT_DIGEST_HOUR = 7;

export async function ensureInstantDigestSchedule(client: Client, taskQueue: string, timeZone: string, hour = INSTANT_DIGEST_HOUR): Promise<void> {
  const action = { type: 'startWorkflow' as const, workflowType: INSTANT_DIGEST_WORKFLOW, taskQueue, args: [{}] as [InstantDigestInput] };
  const spec: ScheduleOptions['spec'] = { calendars: [{ hour, minute: 0, comment: 'the day before, to the office mailbox' }], timezone: timeZone };
  try {
    await client.schedule.create({
      scheduleId: INSTANT_DIGEST_SCHEDULE_ID, spec, action,
      // Each run reports on its own day: a run still retrying (the mail server away) never keeps the next from starting.
      policies: { overlap: 'ALLOW_ALL', catchupWindow: '1 day' },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    // The task queue or the office's zone may have changed with the configuration: keep the Schedule following it.
    await client.schedule.getHandle(INSTANT_DIGEST_SCHEDULE_ID).update((previous) => ({
      ...previous, spec, action: { ...previous.action, ...action },
    }));
  }
}
