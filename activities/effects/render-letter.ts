import { createHash } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { sql } from 'kysely';
import type { AppConfig } from '../../config/app-config';
import { kysely } from '../../db/kysely';
import type { Orm } from '../../db/orm';
import { DOCUMENT_ACTIVITY, GENERATED_DOCUMENT_AUTHOR } from '../../domain';
import { DocumentFiles } from '../../storage/document-files';
import type { ChromiumPdfRenderer } from '../pdf/chromium-pdf-renderer';
import { letterDocumentOf, renderLetterDocument } from '../pdf/letter-documents';
import type { LetterSigner } from '../pdf/letter-signer';
import { loadLetterSigner } from '../pdf/letter-signing-key';
import { verificationMark } from '../pdf/verification-block.html';
import { issuedLetterFacts, issuedLetterKindOf, reserveVerificationCode } from './issued-letters';
import type { EffectKeyInput } from '../../workflows/request-activities.types';
import { withHeartbeat } from './heartbeat';
import { lettersRendered } from '../metrics';
import type { RequestSnapshot } from './request-snapshot';

export const LETTER_AUTHOR = GENERATED_DOCUMENT_AUTHOR;

const isClaimHistoryLetter = (letter: RequestSnapshot['letter']) => !!letter && (!('kind' in letter) || letter.kind === 'credentialing-letter');

/** What printing an effect's letter reads: the effect, and the document a retried attempt already made, if any. */
interface EffectToPrint {
  id: number; requestId: number; snapshot: RequestSnapshot; letterDocumentId: number | null; createdAt: Date; madeDocumentId: number | null;
}
const effectToPrint = (key: string) => sql<EffectToPrint>`
  select e.id, e.request_id as "requestId", e.snapshot, e.letter_document_id as "letterDocumentId", e.created_at as "createdAt",
    d.id as "madeDocumentId"
  from request_effects e left join documents d on d.idempotency_key = e.idempotency_key
  where e.idempotency_key = ${key}`;

/**
 * The letter stored as a document of the request, its audit row, the effect's link to it and (for a certificate or
 * claim-history letter) its verification record issued with the signed bytes' SHA-256, superseding the request's
 * current letter of the same kind, in one statement (all or nothing; the one-current rule is checked at commit: a
 * letter of the same request issued at the same moment makes one of the two fail, and its retry supersedes the
 * other). A new claim-history letter also answers the "letter may be out of date" flag of a CS-STARS upload
 * (the flag the upload set), but only when its snapshot was taken after the upload flagged it: a letter printed late from
 * an older snapshot would not show the new claims. Plain SQL, so the request's `version` (an administrator's open
 * page) is untouched.
 */
const storeLetter = (v: {
  requestId: number; name: string; description: string; storedName: string; size: number; key: string;
  claimHistoryLetter: boolean; snapshotTakenAt: Date; effectId: number; sha256: Buffer; issuedLetterId: number | null;
}) => sql<{ id: number }>`
  with document as (
    insert into documents (request_id, name, description, stored_name, mime_type, size, is_attachment, uploaded_by, idempotency_key, created_at, updated_at)
    values (${v.requestId}, ${v.name}, ${v.description}, ${v.storedName}, 'application/pdf', ${v.size}, true, ${LETTER_AUTHOR}, ${v.key}, now(), now())
    returning id
  ), audit as (
    insert into request_activity (request_id, date, activity_type, activity_text, performed_by, idempotency_key, created_at, updated_at)
    values (${v.requestId}, now(), ${DOCUMENT_ACTIVITY}, ${`Generated "${v.name}"`}, ${LETTER_AUTHOR}, ${`${v.key}:letter`}, now(), now())
  ), fresh as (
    update requests set letter_stale_since = null where id = ${v.requestId} and ${v.claimHistoryLetter}::boolean and letter_stale_since <= ${v.snapshotTakenAt}::timestamptz
  ), linked as (
    update request_effects set letter_document_id = (select id from document), updated_at = now() where id = ${v.effectId}
  ), issued as (
    update issued_letters set document_id = (select id from document), sha256 = ${v.sha256}, issued_at = now(), updated_at = now()
    where id = ${v.issuedLetterId}::int
    returning id, request_id, letter_kind
  ), superseded as (
    update issued_letters old set superseded_at = now(), superseded_by_id = issued.id, updated_at = now()
    from issued
    where old.request_id = issued.request_id and old.letter_kind = issued.letter_kind and old.id <> issued.id
      and old.issued_at is not null and old.superseded_at is null and old.revoked_at is null
  )
  select id from document`;

/**
 * Prints the effect's letter from its snapshot, signs it with the office's certificate and stores it as a document
 * of the request (once per effect: a retry finds the document by the effect's key, and a retry before that prints
 * the verification code the first attempt reserved).
 */
export function renderEffectLetterActivity(deps: {
  orm: Orm; pdf: ChromiumPdfRenderer; files: DocumentFiles; config: AppConfig;
  /** the office's signature (null: LETTER_SIGNING=off); read from the settings when not given */
  signer?: LetterSigner | null;
}) {
  const signer = deps.signer !== undefined ? deps.signer : loadLetterSigner(deps.config);
  return async function renderEffectLetter(input: EffectKeyInput): Promise<{ documentId: number }> {
    const em = deps.orm.em.fork();
    const db = kysely(em);
    const { rows: [effect] } = await effectToPrint(input.key).execute(db);
    if (!effect) throw ApplicationFailure.nonRetryable(`No effect ${input.key}`, 'NotFound');
    if (effect.letterDocumentId) return { documentId: effect.letterDocumentId };
    if (effect.madeDocumentId) {
      await db.updateTable('request_effects').set({ letter_document_id: effect.madeDocumentId, updated_at: sql<Date>`now()` })
        .where('id', '=', effect.id).execute();
      return { documentId: effect.madeDocumentId };
    }
    const { letter } = effect.snapshot;
    if (!letter) throw ApplicationFailure.nonRetryable('The snapshot of this change holds no letter', 'BadRequest');

    // Certificates and claim-history letters carry a verification code, reserved before printing (it is on the paper).
    const doc = letterDocumentOf(letter);
    const kind = issuedLetterKindOf(doc);
    const facts = issuedLetterFacts(doc);
    const issued = kind && facts ? await reserveVerificationCode(em, { requestId: effect.requestId, key: input.key, kind, facts }) : null;
    const mark = issued ? await verificationMark(deps.config.publicUrl, issued.code, !!signer) : null;
    const { html, baseName, description } = renderLetterDocument(letter, mark);
    const printed = Buffer.from(await withHeartbeat(() => deps.pdf.render(html)));
    const bytes = signer ? await signer.sign(printed, `${description} issued by the Risk Management Office`) : printed;
    const sha256 = createHash('sha256').update(bytes).digest();
    lettersRendered.inc();
    const { rows: [{ count: sameName }] } = await sql<{ count: number }>`
      select count(*)::int as count from documents where request_id = ${effect.requestId} and name like ${`${baseName}%`}`.execute(db);
    const name = sameName ? `${baseName} (${sameName + 1}).pdf` : `${baseName}.pdf`;
    const storedName = DocumentFiles.newStoredName(name);
    await deps.files.write(storedName, bytes);
    const { rows: [document] } = await storeLetter({
      requestId: effect.requestId, name, description, storedName, size: bytes.length, key: input.key,
      claimHistoryLetter: isClaimHistoryLetter(letter), snapshotTakenAt: effect.createdAt, effectId: effect.id,
      sha256, issuedLetterId: issued?.id ?? null,
    }).execute(db);
    return { documentId: document.id };
  };
}
