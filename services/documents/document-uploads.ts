/**
 * Receiving the bytes of a document (`POST /upload`, step 1 of adding a document). The order is the rule:
 *   1. a place among the user's uploads in progress and the bytes of the day's quota are reserved in PostgreSQL
 *      before a byte of the file is read (services/documents/uploads.ts);
 *   2. the file streams to a partial file on disk with a running size limit and a time limit (UPLOAD_RECEIVE_MS),
 *      never whole in memory;
 *   3. its type is sniffed from its bytes, the register row written with the real size (the reservation settled),
 *      and only then the file takes its stored name.
 * Whatever fails after 1 (too large, empty, refused type, the sender gone) removes the partial file and gives the
 * place and the bytes back.
 */
import type { Readable } from 'node:stream';
import { MESSAGES, QUOTA_MESSAGES, UPLOAD_RECEIVE_MS, uploadTooLargeMessage } from '../../domain';
import type { AppConfig } from '../../config/app-config';
import { FileTooLargeError, type DocumentFiles } from '../../storage/document-files';
import type { SessionUser } from '../../contract/session-user.schema';
import { invalid, tooLarge, tooSlow, unsupportedType } from '../refusals';
import type { SqlRunner } from '../limits/rate-limits';
import { partNameOf, releaseUploadSlot, reserveUploadSlot, settleUploadSlot, type UploadSlot } from './uploads';
import { ALLOWED_UPLOAD_DESCRIPTION, SNIFF_HEAD_BYTES, sniffUploadFile, type SniffedType } from './upload-sniffing';

interface UploadDeps { sql: SqlRunner; files: DocumentFiles; config: Pick<AppConfig, 'uploadMaxBytes' | 'quotas'> }

/** A file part as @fastify/multipart hands it over: busboy cuts a file at the size limit and says so. */
interface IncomingFile { filename: string; file: Readable & { truncated?: boolean } }

/** A file received whole into its partial file, holding its place until kept or discarded. */
export interface ReceivedUpload { slot: UploadSlot; size: number; head: Buffer; filename: string }

export const notAcceptedType = () => unsupportedType(`This file type is not accepted. Upload ${ALLOWED_UPLOAD_DESCRIPTION}.`);
const fileTooLarge = (config: UploadDeps['config']) => tooLarge(uploadTooLargeMessage(config.uploadMaxBytes));

/**
 * What to reserve before reading: the declared Content-Length when there is one (the file is part of the body, and
 * Node never reads past Content-Length, so the file cannot be larger), never more than the size limit; without one
 * (a chunked body) the size limit. A user near the day's quota can still send a small file.
 */
function bytesToReserve(contentLength: string | undefined, maxBytes: number): number {
  const declared = Number(contentLength);
  return Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, maxBytes) : maxBytes;
}

export async function receiveUpload(deps: UploadDeps, user: SessionUser, part: IncomingFile, contentLength: string | undefined): Promise<ReceivedUpload> {
  const { uploadMaxBytes, quotas } = deps.config;
  const slot = await reserveUploadSlot(deps.sql, {
    userId: user.id, bytes: bytesToReserve(contentLength, uploadMaxBytes),
    byteLimit: user.isAdmin ? null : quotas.uploadBytesPerDay, atOnce: quotas.uploadsAtOnce,
  });
  try {
    const { size, head } = await deps.files.receive(partNameOf(slot), part.file, {
      maxBytes: uploadMaxBytes, headBytes: SNIFF_HEAD_BYTES, signal: AbortSignal.timeout(UPLOAD_RECEIVE_MS),
    });
    // busboy ends a file cut at the limit normally: only its flag tells it was cut.
    if (part.file.truncated) throw new FileTooLargeError(uploadMaxBytes);
    return { slot, size, head, filename: part.filename };
  } catch (error) {
    await discardUpload(deps, slot);
    if (error instanceof FileTooLargeError) throw fileTooLarge(deps.config);
    if ((error as { name?: string }).name === 'AbortError') throw tooSlow(QUOTA_MESSAGES.uploadTooSlow);
    throw error;
  }
}

/** Removes the partial file and gives the place and its bytes back. */
export async function discardUpload(deps: UploadDeps, slot: UploadSlot): Promise<void> {
  await deps.files.remove(partNameOf(slot));
  await releaseUploadSlot(deps.sql, slot);
}

/**
 * Keeps a received file as `storedNameFor(extension)`: sniffed (422 for a type not accepted, 400 for an empty file),
 * registered with its real size, then moved into place. Discards it on any refusal.
 */
export async function keepUpload(
  deps: UploadDeps, received: ReceivedUpload, requestId: number, storedNameFor: (extension: string) => string,
): Promise<{ storedName: string; sniffed: SniffedType }> {
  const partName = partNameOf(received.slot);
  try {
    if (received.size === 0) throw invalid(MESSAGES.selectFile, { file: MESSAGES.selectFile });
    const sniffed = await sniffUploadFile(deps.files.pathOf(partName), received.head);
    if (!sniffed) throw notAcceptedType();
    const storedName = storedNameFor(sniffed.extension);
    await settleUploadSlot(deps.sql, received.slot, { storedName, requestId, size: received.size });
    await deps.files.place(partName, storedName);
    return { storedName, sniffed };
  } catch (error) {
    await discardUpload(deps, received.slot).catch(() => undefined);
    throw error;
  }
}
