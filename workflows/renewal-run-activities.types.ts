/**
 * Activity signatures of the renewal run workflow. Declared beside the workflow that calls them; activities/
 * implements them (activities/renewals/renewal-run.ts).
 */
import type { RenewalControlAction } from './renewal-run.messages';
import type { RenewalRunState } from '../domain/renewals';

export interface RenewalRunFacts {
  mode: 'renew' | 'ask';
  state: RenewalRunState;
  /** ask-first: the end of the answer date in the office's time zone (an instant), null otherwise */
  answerDeadline: string | null;
  perSecond: number;
  maxWaiting: number;
}

/** One batch: how many items it handled, how many of the run's letters wait to be sent, how many items remain. */
export interface RenewBatchResult { handled: number; waiting: number; remaining: number }

export interface RenewalRunActivities {
  loadRenewalRun(input: { runId: number }): Promise<RenewalRunFacts | null>;
  askRenewalBatch(input: { runId: number; limit: number }): Promise<number>;
  countAwaitedAnswers(input: { runId: number }): Promise<number>;
  closeRenewalQuestions(input: { runId: number }): Promise<void>;
  renewBatch(input: { runId: number; limit: number }): Promise<RenewBatchResult>;
  noteRenewalControl(input: { runId: number; action: RenewalControlAction; phase: string }): Promise<RenewalRunState>;
  finishRenewalRun(input: { runId: number; cancelled: boolean }): Promise<RenewalRunState>;
}
