import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { Orm } from '../../db/orm';
import { DocumentSchema, RequestActivitySchema, RequestEffectSchema } from '../../db/entities';
import { GENERATED_DOCUMENT_AUTHOR } from '../../domain';
import { DocumentFiles } from '../../storage/document-files';
import type { ChromiumPdfRenderer } from '../pdf/chromium-pdf-renderer';
import { renderLetterDocument } from '../pdf/letter-documents';
import type { EffectKeyInput } from '../request-activities.types';
import { withHeartbeat } from './heartbeat';
import { lettersRendered } from '../metrics';
import type { RequestSnapshot } from './request-snapshot';

export const LETTER_AUTHOR = GENERATED_DOCUMENT_AUTHOR;

const isClaimHistoryLetter = (letter: RequestSnapshot['letter']) => !!letter && (!('kind' in letter) || letter.kind === 'credentialing-letter');

/**
 * A new claim-history letter answers the "letter may be out of date" flag of a CS-STARS upload (issue #10 item 5),
 * but only when its snapshot was taken after the upload flagged it: a letter printed late from an older snapshot
 * would not show the new claims. Plain SQL, so the request's `version` (an administrator's open page) is untouched.
 */
async function clearStaleLetterFlag(tx: EntityManager, requestId: number, snapshotTakenAt: Date) {
  await tx.getConnection().execute(
    'update requests set letter_stale_since = null where id = ? and letter_stale_since <= ?',
    [requestId, snapshotTakenAt], 'run', tx.getTransactionContext(),
  );
}

/**
 * Prints the effect's letter from its snapshot and stores it as a document of the request (once per effect: a
 * retry finds the document by the effect's key).
 */
export function renderEffectLetterActivity(deps: { orm: Orm; pdf: ChromiumPdfRenderer; files: DocumentFiles }) {
  return async function renderEffectLetter(input: EffectKeyInput): Promise<{ documentId: number }> {
    const em = deps.orm.em.fork();
    const effect = await em.findOne(RequestEffectSchema, { idempotencyKey: input.key });
    if (!effect) throw ApplicationFailure.nonRetryable(`No effect ${input.key}`, 'NotFound');
    if (effect.letterDocumentId) return { documentId: effect.letterDocumentId };
    const made = await em.findOne(DocumentSchema, { idempotencyKey: input.key });
    if (made) {
      effect.letterDocumentId = made.id;
      await em.flush();
      return { documentId: made.id };
    }
    const letter = (effect.snapshot as unknown as RequestSnapshot).letter;
    if (!letter) throw ApplicationFailure.nonRetryable('The snapshot of this change holds no letter', 'BadRequest');

    const { html, baseName, description } = renderLetterDocument(letter);
    const bytes = await withHeartbeat(() => deps.pdf.render(html));
    lettersRendered.inc();
    const sameName = await em.count(DocumentSchema, { requestId: effect.requestId, name: { $like: `${baseName}%` } });
    const name = sameName ? `${baseName} (${sameName + 1}).pdf` : `${baseName}.pdf`;
    const storedName = DocumentFiles.newStoredName(name);
    await deps.files.write(storedName, bytes);
    return em.transactional(async (tx) => {
      const document = tx.create(DocumentSchema, {
        requestId: effect.requestId, name, description, storedName, mimeType: 'application/pdf',
        size: bytes.length, isAttachment: true, uploadedBy: LETTER_AUTHOR, idempotencyKey: input.key,
      } as never);
      tx.create(RequestActivitySchema, {
        requestId: effect.requestId, date: new Date(), activityType: 'Document', activityText: `Generated "${name}"`,
        performedBy: LETTER_AUTHOR, idempotencyKey: `${input.key}:letter`,
      } as never);
      await tx.flush();
      if (isClaimHistoryLetter(letter)) await clearStaleLetterFlag(tx, effect.requestId, effect.createdAt);
      tx.assign(effect, { letterDocumentId: document.id });
      tx.persist(effect);
      return { documentId: document.id };
    });
  };
}
