/**
 * What an uploaded file really is, by its bytes (never the client's claim). Supporting documents are PDFs, images,
 * Office files or plain text; anything else is refused. The same rule for uploads (services/documents/document-uploads.ts)
 * and for attachments of a reply by email (mail-in/processing/).
 */
import { fileTypeFromBuffer, fileTypeFromFile, type FileTypeResult } from 'file-type';

const ALLOWED = new Map<string, string>([
  ['application/pdf', 'pdf'], ['image/png', 'png'], ['image/jpeg', 'jpg'], ['image/gif', 'gif'], ['image/tiff', 'tif'],
  ['application/msword', 'doc'], ['application/x-cfb', 'doc'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
  ['application/vnd.ms-excel', 'xls'],
]);

/**
 * Every MIME type an upload may be kept as, plain text included: the server's one list, which the document picker's
 * `accept` (domain/request-documents.ts DOCUMENT_TYPES) must cover; tests/e2e/pickers.e2e.test.ts holds them together.
 */
export const UPLOAD_MIME_TYPES: readonly string[] = [...[...ALLOWED.keys()].filter((mime) => mime !== 'application/x-cfb'), 'text/plain'];

export const ALLOWED_UPLOAD_DESCRIPTION = 'PDF, PNG, JPEG, GIF, TIFF, Word, Excel or plain text';

function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 8192);
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.length === bytes.length ? sample : bytes.subarray(0, 8192 - 4));
    return true;
  } catch {
    return false;
  }
}

/** How many first bytes of a file the verdict needs besides file-type's own reading (the plain-text check). */
export const SNIFF_HEAD_BYTES = 16384;

export interface SniffedType { mimeType: string; extension: string }

/**
 * `{ mimeType, extension }` of an allowed file on disk, or null, given its first SNIFF_HEAD_BYTES bytes: file-type
 * reads only what it needs from the file (walking an Office file's ZIP entries), so nothing is loaded whole.
 */
export async function sniffUploadFile(path: string, head: Uint8Array): Promise<SniffedType | null> {
  return verdictOf(await fileTypeFromFile(path), head);
}

function verdictOf(detected: FileTypeResult | undefined, bytes: Uint8Array): SniffedType | null {
  if (detected) {
    const extension = ALLOWED.get(detected.mime);
    return extension ? { mimeType: detected.mime === 'application/x-cfb' ? 'application/msword' : detected.mime, extension } : null;
  }
  // The first 8 KB decide (looksLikeText), so the head gives the same answer as the whole file.
  if (bytes.length > 0 && looksLikeText(bytes)) return { mimeType: 'text/plain', extension: 'txt' };
  return null;
}

/** The same verdict for bytes already in memory (an email attachment, at most the message size limit). */
export async function sniffUploadBytes(bytes: Uint8Array): Promise<SniffedType | null> {
  return verdictOf(await fileTypeFromBuffer(bytes), bytes.subarray(0, SNIFF_HEAD_BYTES));
}
