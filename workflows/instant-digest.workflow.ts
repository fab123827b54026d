/**
 * The office's daily digest of instant certificates: a Temporal Schedule (worker/instant-digest-schedule.ts) starts
 * this workflow each morning; its one activity emails what the rules issued the office day before. The workflow reads
 * its clock once, so every retry of the activity reports on the same day, even one that runs after midnight; the
 * activity sends a day's digest once however often it runs (instant_digests).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { InstantDigestActivities, InstantDigestResult } from './instant-digest-activities.types';
import type { InstantDigestInput } from './instant-digest.messages';

const { sendInstantDigest } = proxyActivities<InstantDigestActivities>({
  startToCloseTimeout: '2 minutes',
  // A mail server down for hours still gets the digest when it returns: retried for a day at most.
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

export async function instantDigestWorkflow(input: InstantDigestInput = {}): Promise<InstantDigestResult> {
  return sendInstantDigest({ day: input.day ?? null, at: Date.now() });
}
