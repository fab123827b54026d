/**
 * Documents of a request (spec 1 §3 "Document", §5 "Documents and messages"): who may remove which,
 * when the action columns show, the audit texts of every document event, and what `generate-pdfs` may do.
 */
import { EMAIL_TEMPLATE_TITLES, type EmailTemplateTitle } from './notification-template';
import type { RequestType } from './reference-lists';
import { isCompleted, isFinished, STATUS, type RequestStatus } from './request-status';

/** Who put a document on the request: the requester, an administrator, or the portal (a generated letter). */
export type DocumentOrigin = 'requester' | 'administrator' | 'system';

export const DOCUMENT_ACTIVITY = 'Document';

/**
 * The file types the document picker starts on (spec 2 §9.1 "File picker default: png and jpeg"; the CS-STARS upload
 * picks csv). A default, not a limit: the picker's All files choice reaches the other documents the upload accepts
 * (a signed release is often a PDF), and the server decides by a file's bytes what it keeps.
 */
export const DOCUMENT_PICKER_DEFAULT_TYPES = ['image/png', 'image/jpeg'] as const;
export const DOCUMENT_PICKER_HINT = 'The picker starts on PNG and JPEG images; choose All files to attach a PDF, Word or Excel document.';

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
