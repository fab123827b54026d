/**
 * The documents a status change can issue, as one discriminated union kept in the effect's snapshot, and how each
 * is rendered and named. Snapshots taken before the union (no `kind`) are credentialing letters.
 */
import { certificateHtml, letterOfIntentHtml, type CertificateData } from './certificate.html';
import { credentialingLetterHtml, type CredentialingLetterData } from './credentialing-letter.html';

export type LetterDocument =
  | ({ kind: 'credentialing-letter' } & CredentialingLetterData)
  | ({ kind: 'certificate' } & CertificateData)
  | ({ kind: 'letter-of-intent' } & CertificateData);

export interface RenderedLetter { html: string; baseName: string; description: string }

export function renderLetterDocument(letter: LetterDocument | CredentialingLetterData): RenderedLetter {
  const doc: LetterDocument = 'kind' in letter ? letter : { kind: 'credentialing-letter', ...letter };
  switch (doc.kind) {
    case 'certificate':
      return { html: certificateHtml(doc), baseName: `Certificate of Insurance ${doc.requestNumber}`, description: 'Certificate of Insurance' };
    case 'letter-of-intent':
      return { html: letterOfIntentHtml(doc), baseName: `Letter of Intent ${doc.requestNumber}`, description: 'Letter of Intent' };
    default:
      return { html: credentialingLetterHtml(doc), baseName: `Claim History and Insurance Verification ${doc.requestNumber}`, description: 'Approval letter' };
  }
}
