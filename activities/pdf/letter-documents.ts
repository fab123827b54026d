/**
 * The documents a status change can issue, as one discriminated union kept in the effect's snapshot, and how each
 * is rendered and named. Snapshots taken before the union (no `kind`) are credentialing letters.
 */
import { certificateHtml, letterOfIntentHtml, type CertificateData } from './certificate.html';
import { credentialingLetterHtml, type CredentialingLetterData } from './credentialing-letter.html';
import type { VerificationMark } from './verification-block.html';

export type LetterDocument =
  | ({ kind: 'credentialing-letter' } & CredentialingLetterData)
  | ({ kind: 'certificate' } & CertificateData)
  | ({ kind: 'letter-of-intent' } & CertificateData);

export interface RenderedLetter { html: string; baseName: string; description: string }

/** The document a snapshot's letter is: credentialing letters of snapshots taken before the union have no `kind`. */
export const letterDocumentOf = (letter: LetterDocument | CredentialingLetterData): LetterDocument =>
  ('kind' in letter ? letter : { kind: 'credentialing-letter', ...letter });

/**
 * The letter's HTML and names. `verification` (certificates and claim-history letters) prints the code and its QR;
 * a letter of intent is not a certificate and carries none.
 */
export function renderLetterDocument(letter: LetterDocument | CredentialingLetterData, verification?: VerificationMark | null): RenderedLetter {
  const doc = letterDocumentOf(letter);
  switch (doc.kind) {
    case 'certificate':
      return { html: certificateHtml(doc, verification), baseName: `Certificate of Insurance ${doc.requestNumber}`, description: 'Certificate of Insurance' };
    case 'letter-of-intent':
      return { html: letterOfIntentHtml(doc), baseName: `Letter of Intent ${doc.requestNumber}`, description: 'Letter of Intent' };
    default:
      return { html: credentialingLetterHtml(doc, verification), baseName: `Claim History and Insurance Verification ${doc.requestNumber}`, description: 'Approval letter' };
  }
}

/**
 * Launches the renderer's browsers at worker start and prints a sample letter on each (fonts and print path
 * loaded), so the first real letter after a start does not wait seconds for Chromium (a letter is printed within 2 s).
 */
export function prelaunchLetterRenderer(renderer: { warmUp(html: string): Promise<void> }): Promise<void> {
  return renderer.warmUp(renderLetterDocument({
    kind: 'credentialing-letter', requestNumber: 0, issuedOn: new Date().toISOString(), clinicianName: 'Sample Clinician',
    birthDate: null, dateFrom: '2024-07-01T00:00:00.000Z', dateTo: '2025-06-30T00:00:00.000Z', recipientName: 'Sample',
    recipientCompany: null, claims: [],
    policyYears: [{ startDate: '2024-07-01T00:00:00.000Z', endDate: '2025-06-30T00:00:00.000Z', policyNumber: 'SAMPLE', limitClaim: '1', annualAggregate: '1' }],
  }).html);
}
