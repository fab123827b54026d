/**
 * The wake-up workflows (a waiting request woken when what it waits for arrives), shared by the API (which starts
 * them), the worker (which schedules the sweep) and the workflows. Safe for the workflow bundle: types and pure functions only.
 */
import type { WakeReason } from '../domain';

/** What changed: a policy year added or edited, or a directory person added or edited. */
export interface WakeUpInput { reason: WakeReason; sourceId: number }

export const WAKE_UP_WORKFLOW = 'wakeUpWorkflow';
export const WAKE_UP_SWEEP_WORKFLOW = 'wakeUpSweepWorkflow';

/**
 * One workflow per change: `wake-up-policy-<id>-<ms>` / `wake-up-person-<id>-<ms>`, `<ms>` being the record's
 * `updatedAt`. A repeated start after the same save is the same workflow; a later edit of the same record is a new one
 * (it may be the edit that makes the person active).
 */
export function wakeUpWorkflowId(input: WakeUpInput, changedAt: Date): string {
  return `wake-up-${input.reason === 'policy-year' ? 'policy' : 'person'}-${input.sourceId}-${changedAt.getTime()}`;
}

/** The Temporal Schedule that sweeps for wake-ups a crash between a save and its workflow start left behind. */
export const WAKE_UP_SWEEP_SCHEDULE_ID = 'wake-up-sweep';
