/**
 * A file that arrived whole by another door than the upload form (an attachment of a reply by email) becomes a
 * document under the same rules as an upload: the size limit, the type sniffed from its bytes, the sender's daily
 * upload bytes (an account's through the upload register, as the form's uploads; for a sender without an account, by
 * address; administrators are not counted), its bytes registered before the document names them, and its document
 * and audit row written together. It is its sender's upload in every respect (never a letter the portal generated).
 * Keyed by the door (`key`): a retried attempt finds the document it already added.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DocumentSchema, RequestActivitySchema } from '../../db/entities';
import { DOCUMENT_ACTIVITY, documentAuditText, QUOTAS } from '../../domain';
import { DocumentFiles } from '../../storage/document-files';
import type { AppConfig } from '../../config/app-config';
import { reserveAmount } from '../limits/rate-limits';
import { Refusal } from '../refusals';
import type { Poster } from '../discussions/discussions';
import { sniffUploadBytes } from './upload-sniffing';
import { reserveUploadSlot, settleUploadSlot } from './uploads';

/** Why a received file was not added (the door words it). */
export type ReceivedFileRefusal = 'too-large' | 'type' | 'quota';

export interface ReceivedFile {
  /** the name the sender gave it (made safe and unique here) */
  filename: string;
  bytes: Uint8Array;
  /** the door's key for this file: a retry with the same key adds nothing */
  key: string;
  description: string;
  /** what the audit row adds after "Added …" (e.g. "from a reply by email") */
  auditSuffix: string;
  channel: 'Email';
}

type Deps = { files: DocumentFiles; config: Pick<AppConfig, 'uploadMaxBytes' | 'quotas'> };

/** The name a new document of the request may take: the file's own, else with " (2)", " (3)" … before its extension. */
async function uniqueName(em: EntityManager, requestId: number, wanted: string): Promise<string> {
  // eslint-disable-next-line no-control-regex -- control characters are what a file name must not keep
  const base = wanted.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim().slice(0, 180) || 'attachment';
  const taken = new Set((await em.find(DocumentSchema, { requestId }, { fields: ['name'] })).map((d) => d.name));
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : base.replace(/(\.[^.]*)?$/, (ext) => ` (${n})${ext ?? ''}`);
    if (!taken.has(name)) return name;
  }
}

/** The sender's daily upload bytes: the account's (as uploads on the form count), else the address's. */
async function reserveBytes(deps: Deps, em: EntityManager, poster: Poster, requestBytes: number) {
  if (poster.isAdmin) return { slot: null };
  if (poster.userId !== null) {
    try {
      // Places at once do not apply: the file is here whole (the form's limit is on uploads in progress).
      return { slot: await reserveUploadSlot(em, { userId: poster.userId, bytes: requestBytes, byteLimit: deps.config.quotas.uploadBytesPerDay, atOnce: 1_000_000 }) };
    } catch (error) {
      if (error instanceof Refusal && error.kind === 'over-quota') return null;
      throw error;
    }
  }
  const window = { max: deps.config.quotas.uploadBytesPerDay, windowMs: QUOTAS.uploadBytesPerDay.windowMs };
  return (await reserveAmount(em, `inbound-upload-bytes|${poster.email.toLowerCase()}`, requestBytes, window)) ? { slot: null } : null;
}

/** Adds the file to the request as a document of `poster`'s; answers why not when it was not added. */
export async function addReceivedFile(
  deps: Deps, em: EntityManager, request: { id: number }, file: ReceivedFile, poster: Poster,
): Promise<{ added: boolean } | { refused: ReceivedFileRefusal }> {
  if (await em.count(DocumentSchema, { inboundKey: file.key })) return { added: false };
  if (file.bytes.byteLength === 0) return { added: false };
  if (file.bytes.byteLength > deps.config.uploadMaxBytes) return { refused: 'too-large' };
  const sniffed = await sniffUploadBytes(file.bytes);
  if (!sniffed) return { refused: 'type' };
  const reserved = await reserveBytes(deps, em, poster, file.bytes.byteLength);
  if (!reserved) return { refused: 'quota' };
  const storedName = `r${request.id}-${DocumentFiles.newStoredName(`x.${sniffed.extension}`)}`;
  await deps.files.write(storedName, file.bytes);
  // On the pool, committed at once: the bytes just written have their register row whatever the document's fate.
  if (reserved.slot) await settleUploadSlot(em, reserved.slot, { storedName, requestId: request.id, size: file.bytes.byteLength });
  await em.transactional(async (tx) => {
    const name = await uniqueName(tx, request.id, file.filename);
    tx.create(DocumentSchema, {
      requestId: request.id, name, description: file.description, storedName, mimeType: sniffed.mimeType,
      size: file.bytes.byteLength, isAttachment: false, uploadedBy: poster.name, uploadedByUserId: poster.userId, addedByAdmin: poster.isAdmin,
      legacyId: null, idempotencyKey: null, inboundKey: file.key,
    });
    tx.create(RequestActivitySchema, {
      requestId: request.id, date: new Date(), activityType: DOCUMENT_ACTIVITY, activityText: `${documentAuditText.added(name, false)} ${file.auditSuffix}`,
      performedBy: poster.name, performedByUserId: poster.userId, recipients: null, channel: file.channel, idempotencyKey: `${file.key}:added`,
    });
  });
  return { added: true };
}
