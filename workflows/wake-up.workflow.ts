/**
 * Wake-ups: a request waiting for a policy year or a person is woken when it arrives. After an administrator saves
 * a policy year or a directory person, the API starts `wakeUpWorkflow`: an activity finds the requests waiting for that change, and each is sent the `wake`
 * update of its own workflow (update-with-start), which the lifecycle machine judges. The sweep does the same for
 * every waiting request whose cause changed after it started waiting, so a wake-up the API never started (it died
 * right after the commit) happens at the next sweep (a Temporal Schedule, worker/wake-up-sweep.ts).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { WakeUpActivities } from './wake-up-activities.types';
import type { WakeUpInput } from './wake-up.messages';

const { findRequestsToWake, wakeRequest } = proxyActivities<WakeUpActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

async function wakeAll(input: WakeUpInput | null): Promise<number> {
  const orders = await findRequestsToWake({ cause: input });
  let woken = 0;
  // One at a time: a handful of requests wait for any one change, and each wake-up is a quick status write.
  for (const order of orders) {
    if ((await wakeRequest(order)) === 'woken') woken++;
  }
  return woken;
}

export async function wakeUpWorkflow(input: WakeUpInput): Promise<number> {
  return wakeAll(input);
}

export async function wakeUpSweepWorkflow(): Promise<number> {
  return wakeAll(null);
}
