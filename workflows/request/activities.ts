/**
 * The request workflow's activities, with their timeouts and retries. Types only from activities/ (the workflow
 * sandbox loads no activity code).
 */
import { proxyActivities, proxyLocalActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { RequestActivities } from '../request-activities.types';
import { letterTaskQueue } from '../request.messages';

/**
 * Effects retry transient failures with a backoff growing to 5 minutes until the worker's retry window (default 72 h,
 * worker/retry-window.ts) runs out, then fail visibly; permanent failures fail at once.
 */
const EFFECT_RETRY: ActivityOptions['retry'] = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' };

/** Writes (a status, an audit row, an effect) retry until PostgreSQL takes them: the change was accepted and must land. */
const RECORD_OPTIONS = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
} satisfies ActivityOptions;

export const records = proxyActivities<RequestActivities>(RECORD_OPTIONS);

/**
 * What a fresh run reads of PostgreSQL (the clocks' start, the effects an earlier run owed), as one local activity:
 * read inside the workflow task that took the first command, not in an activity task and a workflow task more per
 * submit. Writes stay activities: a local activity's write happens before the workflow task that accepts the update
 * is recorded, and a lost task (a worker or server killed) would leave PostgreSQL with a change the workflow never made.
 */
export const localReads = proxyLocalActivities<RequestActivities>(RECORD_OPTIONS);

export const emails = proxyActivities<RequestActivities>({ startToCloseTimeout: '30 seconds', heartbeatTimeout: '5 seconds', retry: EFFECT_RETRY });

/** Letters (Chromium) on the letters task queue beside the run's own (request.messages.ts `letterTaskQueue`). */
export const lettersOfThisRun = () => proxyActivities<RequestActivities>({
  taskQueue: letterTaskQueue(workflowInfo().taskQueue), startToCloseTimeout: '1 minute', heartbeatTimeout: '10 seconds', retry: EFFECT_RETRY,
});
