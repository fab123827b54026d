/** Activity signatures of the wake-up workflows (type-only import into the workflow bundle). */
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
