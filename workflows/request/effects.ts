/**
 * How the main loop carries out one effect the request owes. Each activity is keyed by the effect's key, so a retry
 * never repeats it. A permanent failure (bad address, SMTP 5xx, retries exhausted) becomes an `Email Failed` audit
 * row the administrator can send again, and the loop goes on to the next effect.
 */
import { ActivityFailure, log } from '@temporalio/workflow';
import { LETTER_FAILED_PREFIX } from '../../domain/messages';
import type { EffectRef } from '../request-activities.types';
import { emails, lettersOfThisRun, records } from './activities';

export function failureReason(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return (cause as Error | undefined)?.message || String(error);
}

/**
 * `letter-and-email`: one activity on the letters queue prints the letter and emails it (its failure names itself);
 * `letter` (regenerated on demand, not emailed): printed, then the effect is closed; `email`: sent.
 */
export async function carryOut(effect: EffectRef): Promise<void> {
  let step = 'letter';
  try {
    if (effect.kind === 'letter-and-email') {
      step = 'letter and email';
      await lettersOfThisRun().issueLetterAndEmail({ key: effect.key });
    } else if (effect.kind === 'letter') {
      await lettersOfThisRun().renderEffectLetter({ key: effect.key });
      step = 'close';
      await records.finishLetterEffect({ key: effect.key });
    } else {
      step = 'email';
      await emails.sendEffectEmail({ key: effect.key });
    }
  } catch (error) {
    const reason = step === 'letter' ? `${LETTER_FAILED_PREFIX}${failureReason(error)}` : failureReason(error);
    log.warn('request effect failed', { key: effect.key, templateTitle: effect.templateTitle, reason });
    await records.recordEffectFailure({ key: effect.key, reason });
  }
}
