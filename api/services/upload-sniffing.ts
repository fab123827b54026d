/**
 * What an uploaded file really is, by its bytes (never the client's claim). Supporting documents are PDFs, images,
 * Office files or plain text; anything else is refused.
 */
import { fileTypeFromBuffer } from 'file-type';

const ALLOWED = new Map<string, string>([
  ['application/pdf', 'pdf'], ['image/png', 'png'], ['image/jpeg', 'jpg'], ['image/gif', 'gif'], ['image/tiff', 'tif'],
  ['application/msword', 'doc'], ['application/x-cfb', 'doc'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
  ['application/vnd.ms-excel', 'xls'],
]);

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

/** `{ mimeType, extension }` of an allowed file, or null. */
export async function sniffUpload(bytes: Uint8Array): Promise<{ mimeType: string; extension: string } | null> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) {
    const extension = ALLOWED.get(detected.mime);
    return extension ? { mimeType: detected.mime === 'application/x-cfb' ? 'application/msword' : detected.mime, extension } : null;
  }
  if (bytes.length > 0 && looksLikeText(bytes)) return { mimeType: 'text/plain', extension: 'txt' };
  return null;
}
