/**
 * Documents of a request (spec 1 §3 "Document", §5 "Documents and messages"): who may remove which,
 * when the action columns show, the audit texts of every document event, and what `generate-pdfs` may do.
 */
import { EMAIL_TEMPLATE_TITLES, type EmailTemplateTitle } from './notification-template';
import type { RequestType } from './reference-lists';
import { isCompleted, isFinished, STATUS, type RequestStatus } from './request-status';

/** Who put a document on the request: the requester, an administrator, or the portal (a generated letter). */
export type DocumentOrigin = 'requester' | 'administrator' | 'system';

/**
 * Every type of supporting document the upload keeps, as the document picker offers them: the server decides by a
 * file's bytes (storage/file-sniffing.ts UPLOAD_MIME_TYPES, which this list must cover: tests/e2e/pickers.e2e.test.ts
 * compares the picker in Chromium with it). `pickerExtensions`: what a file of the type is called on a person's disk.
 * PNG and JPEG come first: spec 2 §9.1 "File picker default: png and jpeg".
 */
export const DOCUMENT_TYPES = [
  { mimeType: 'image/png', pickerExtensions: ['.png'] },
  { mimeType: 'image/jpeg', pickerExtensions: ['.jpg', '.jpeg'] },
  { mimeType: 'application/pdf', pickerExtensions: ['.pdf'] },
  { mimeType: 'application/msword', pickerExtensions: ['.doc'] },
  { mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', pickerExtensions: ['.docx'] },
  { mimeType: 'application/vnd.ms-excel', pickerExtensions: ['.xls'] },
  { mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', pickerExtensions: ['.xlsx'] },
  { mimeType: 'image/gif', pickerExtensions: ['.gif'] },
  { mimeType: 'image/tiff', pickerExtensions: ['.tif', '.tiff'] },
  { mimeType: 'text/plain', pickerExtensions: ['.txt'] },
] as const;

/** The spec's picker default (spec 2 §9.1): what the picker offers first where the browser lets it offer a choice. */
export const DOCUMENT_PICKER_DEFAULT_TYPES = ['image/png', 'image/jpeg'] as const;

/**
 * The file input's `accept`: every type the upload keeps, by MIME type and by file name (some systems know a file only
 * by its name), the spec's default first. Never only the default: a picker without an "All files" choice (Safari on
 * macOS and iOS, phones) would then offer no PDF release or Word lease at all.
 */
export const DOCUMENT_PICKER_ACCEPT = DOCUMENT_TYPES.flatMap((type) => [type.mimeType, ...type.pickerExtensions]).join(',');

/**
 * The choices of a picker that offers several (the File System Access picker of Chromium on a desktop): the spec's
 * default first, which the picker opens on, then the other documents; its "All files" choice stays.
 */
export const DOCUMENT_PICKER_CHOICES = [
  { description: 'PNG and JPEG images', types: DOCUMENT_TYPES.filter((t) => (DOCUMENT_PICKER_DEFAULT_TYPES as readonly string[]).includes(t.mimeType)) },
  { description: 'PDF, Word, Excel and other documents', types: DOCUMENT_TYPES.filter((t) => !(DOCUMENT_PICKER_DEFAULT_TYPES as readonly string[]).includes(t.mimeType)) },
].map(({ description, types }) => ({
  description, accept: Object.fromEntries(types.map((t) => [t.mimeType, [...t.pickerExtensions]])) as Record<string, string[]>,
}));

export const DOCUMENT_PICKER_HINT = 'PNG or JPEG images, PDF, Word, Excel, GIF, TIFF or plain text.';

/** Documents change (add, rename, flag, delete) until the request is approved or in a terminal status. */
export const documentsEditable = (status: RequestStatus): boolean => !isFinished(status);

/** A requester removes only what a requester added; an administrator removes any document. */
export const mayRemoveDocument = (isAdmin: boolean, origin: DocumentOrigin): boolean => isAdmin || origin === 'requester';

export const DOCUMENT_REMOVE_REFUSED = 'Only an administrator can remove a document an administrator added or the portal generated';

export const documentAuditText = {
  added: (name: string, attached: boolean) => `Added "${name}"${attached ? ' (attached to the approval email)' : ''}`,
  renamed: (from: string, to: string) => `Renamed "${from}" to "${to}"`,
  redescribed: (name: string) => `Changed the description of "${name}"`,
  flagged: (name: string, attached: boolean) =>
    attached ? `"${name}" will be attached to the approval email` : `"${name}" will no longer be attached to the approval email`,
  removed: (name: string) => `Deleted "${name}"`,
  regenerationRequested: (sendWithEmail: boolean) => `Regenerated the letter${sendWithEmail ? ' and emailed it' : ''}`,
  regenerationFailed: (reason: string) => `The letter could not be generated: ${reason}`,
};

/**
 * `generate-pdfs` regenerates the document an approval issued: only an approved request has one (a requester must
 * never find a letter, or hear "approved", before the request is).
 */
export const mayGenerateLetter = (status: RequestStatus): boolean => isCompleted(status);
export const LETTER_NOT_APPROVED = 'Only an approved request has a letter or certificate to generate';

/** The approval email a regenerated letter goes out with (`sendWithEmail`), by the request's kind. */
export function letterEmailTemplateFor(requestType: RequestType | string, status: RequestStatus): EmailTemplateTitle {
  if (requestType === 'credentialing') return EMAIL_TEMPLATE_TITLES.credentialingApproved;
  return status === STATUS.approvedWithLetterOfIntent ? EMAIL_TEMPLATE_TITLES.certificateApprovedLetterOfIntent : EMAIL_TEMPLATE_TITLES.certificateApproved;
}
