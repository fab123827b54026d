import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { LETTER_FAILED_PREFIX } from '../../domain';
import type { DocumentFiles } from '../../storage/document-files';
import type { Mailer } from '../mailer';
import type { ChromiumPdfRenderer } from '../pdf/chromium-pdf-renderer';
import type { LetterSigner } from '../pdf/letter-signer';
import type { EffectKeyInput, SendEffectEmailResult } from '../../workflows/request-activities.types';
import { renderEffectLetterActivity } from './render-letter';
import { sendEffectEmailActivity } from './send-email';

/**
 * A decision's letter and its email in one activity on the letters task queue: the
 * letter printed and stored (or found, on a retry), then the email sent with it, as the two activities did one after
 * the other, without the activity task and workflow task between them. Each half keeps its own idempotency (the
 * letter by the document's key, the email by its claim and mark). A failure of the letter half is named so
 * ("the letter could not be generated: …") and keeps its retryability; the email half's failures pass unchanged
 * (`DeliveredNotMarked` included, which the retry window never gives up on).
 */
export function issueLetterAndEmailActivity(deps: { orm: Orm; pdf: ChromiumPdfRenderer; files: DocumentFiles; mailer: Mailer; config: AppConfig; signer?: LetterSigner | null }) {
  const renderLetter = renderEffectLetterActivity(deps);
  const sendEmail = sendEffectEmailActivity(deps);
  return async function issueLetterAndEmail(input: EffectKeyInput): Promise<SendEffectEmailResult> {
    try {
      await renderLetter(input);
    } catch (error) {
      const message = (error as Error)?.message ?? String(error);
      throw ApplicationFailure.create({
        type: 'LetterNotGenerated', message: `${LETTER_FAILED_PREFIX}${message}`, cause: error as Error,
        nonRetryable: error instanceof ApplicationFailure && error.nonRetryable === true,
      });
    }
    return sendEmail(input);
  };
}
