/**
 * Activity signatures of the wake-up workflows. Declared beside the workflow that calls them;
 * activities/ implements them and imports this file, workflows/ never imports activities/ (the sandbox loads no
 * activity code, and the two folders do not import each other).
 */
import type { WakeReason } from '../domain';

/** A waiting request to wake, and why. */
export interface WakeOrder {
  requestId: number;
  requestNumber: number;
  reason: WakeReason;
  /** the policy year or directory person whose change wakes it */
  sourceId: number;
  /** what the audit row says (domain/wake-ups.ts `wakeAuditNote`) */
  note: string;
}

/** `woken`: the request returned to review (now or by an earlier delivery of the same update); `not-waiting`: it had moved on. */
export type WakeOutcome = 'woken' | 'not-waiting';

export interface WakeUpActivities {
  /** `cause` null: the sweep (every waiting request whose cause changed after it started waiting). */
  findRequestsToWake(input: { cause: { reason: WakeReason; sourceId: number } | null }): Promise<WakeOrder[]>;
  wakeRequest(order: WakeOrder): Promise<WakeOutcome>;
}
