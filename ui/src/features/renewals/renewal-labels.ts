/** The words the Renewals page shows for the API's codes (verdicts, modes, states) and a run's progress. */
import type { RenewalItemState, RenewalMode, RenewalRunState } from '../../../../domain';
import type { RenewalCandidate, RenewalRun } from './renewals-api';

export const VERDICT_LABELS: Record<RenewalCandidate['verdict'], string> = {
  renew: 'Will renew',
  notRenewing: 'Not renewing',
  doesNotFit: 'Does not fit',
  renewed: 'Already renewed',
};

export const MODE_LABELS: Record<RenewalMode, string> = { renew: 'Renew now', ask: 'Ask the requesters first' };

export const RUN_STATE_LABELS: Record<RenewalRunState, string> = {
  asking: 'Waiting for answers',
  running: 'Running',
  paused: 'Paused',
  finished: 'Finished',
  cancelled: 'Cancelled',
};

export const ITEM_STATE_LABELS: Record<RenewalItemState, string> = {
  asked: 'Awaiting an answer',
  pending: 'To renew',
  renewed: 'Renewed',
  failed: 'Failed',
  declined: 'Not needed (requester said no)',
  unanswered: 'No answer by the date',
  skipped: 'Already renewed by another run',
  cancelled: 'Cancelled',
};

export const DELIVERY_LABELS = { pending: 'Letter and email on their way', sent: 'Sent', failed: 'Sending failed' } as const;

export const ANSWER_LABELS = { yes: 'Yes', no: 'No' } as const;

/** A run still moving (or paused, so it can move again): its progress is worth reading again. */
export const isActiveRun = (run: RenewalRun) => run.state === 'asking' || run.state === 'running' || run.state === 'paused';

const count = (n: number) => n.toLocaleString('en-US');

/** "3 done · 1 waiting · 0 failed · 6 remaining · 2 not renewed", and in ask mode what still awaits an answer. */
export function progressText(run: RenewalRun): string {
  const p = run.progress;
  const parts = [`${count(p.done)} done`, `${count(p.waiting)} waiting`, `${count(p.failed)} failed`, `${count(p.remaining)} remaining`, `${count(p.notRenewed)} not renewed`];
  if (run.mode === 'ask') parts.push(`${count(p.asked)} awaiting an answer`);
  return parts.join(' · ');
}
