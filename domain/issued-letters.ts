/**
 * Issued certificates and claim-history letters as a holder checks them: their status, the reasons an
 * administrator may revoke one for, and the facts the public verification page shows beside the status.
 *
 * RULES:
 * - Status: a revoked letter is Revoked (whatever else happened to it); otherwise a letter a newer one of the same
 *   request replaced is Superseded; otherwise it is Valid.
 * - Issuing a new certificate for a request supersedes its current one (the one neither superseded nor revoked).
 * - Only a Valid letter can be revoked; the reason is one of the categories below, with an optional note (required
 *   for "Other", so the requester's email always says why).
 * - The facts are a snapshot taken at issue: what the paper says, never the live request. A claim-history letter
 *   shows only the clinician's name and the letter's date: no claims data leaves the portal through the public page.
 * - A superseded letter's page leads to its successor only when the successor is for the same party (a certificate's
 *   holder, a claim-history letter's clinician): whoever holds the old paper may learn the new one's facts for
 *   themselves, never those of another holder the request was re-issued to. Otherwise it says when it was superseded.
 */
export const ISSUED_LETTER_KINDS = ['certificate', 'claimHistoryLetter'] as const;
export type IssuedLetterKind = (typeof ISSUED_LETTER_KINDS)[number];

export const ISSUED_LETTER_KIND_LABELS: Record<IssuedLetterKind, string> = {
  certificate: 'Certificate of Insurance',
  claimHistoryLetter: 'Claim History and Insurance Verification letter',
};

export const CERTIFICATE_STATUSES = ['Valid', 'Superseded', 'Revoked'] as const;
type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/**
 * Why an administrator revokes a letter (the category is shown on the public page; a note is not):
 * - Issued in error: it should never have been issued (wrong request, wrong person).
 * - Coverage cancelled: the activity or contract it covers was cancelled, or coverage no longer applies.
 * - Details changed: what it states is no longer right (dates, holder, limits) and no replacement was issued here.
 * - Other: anything else; the note says what.
 */
export const REVOKE_REASONS = ['Issued in error', 'Coverage cancelled', 'Details changed', 'Other'] as const;
export type RevokeReason = (typeof REVOKE_REASONS)[number];
/** longest note an administrator may add to a revocation */
export const REVOKE_NOTE_MAX_LENGTH = 500;

export const ISSUED_LETTER_MESSAGES = {
  reason: 'Choose why the certificate is revoked.',
  noteRequired: 'Say why the certificate is revoked.',
  noteTooLong: `The note may be at most ${REVOKE_NOTE_MAX_LENGTH} characters.`,
  alreadyRevoked: 'This certificate has already been revoked.',
  superseded: 'This certificate was superseded by a newer one; only the current certificate can be revoked.',
  notFound: 'No certificate with this code belongs to this request.',
} as const;

/** The parts of an issued-letter row the status depends on. */
interface IssuedLetterState {
  revokedAt?: Date | string | null;
  supersededAt?: Date | string | null;
}

export function certificateStatus(row: IssuedLetterState): CertificateStatus {
  if (row.revokedAt) return 'Revoked';
  if (row.supersededAt) return 'Superseded';
  return 'Valid';
}

export const isRevokeReason = (value: unknown): value is RevokeReason =>
  typeof value === 'string' && (REVOKE_REASONS as readonly string[]).includes(value);

/** Field errors of a revocation's reason and note (empty when it may go ahead). */
export function revokeErrors(input: { reason?: unknown; note?: unknown }): { reason?: string; note?: string } {
  const errors: { reason?: string; note?: string } = {};
  if (!isRevokeReason(input.reason)) errors.reason = ISSUED_LETTER_MESSAGES.reason;
  const note = typeof input.note === 'string' ? input.note.trim() : '';
  if (note.length > REVOKE_NOTE_MAX_LENGTH) errors.note = ISSUED_LETTER_MESSAGES.noteTooLong;
  else if (input.reason === 'Other' && !note) errors.note = ISSUED_LETTER_MESSAGES.noteRequired;
  return errors;
}

/** Why a letter in this state cannot be revoked, or null when it can. */
export function revokeRefusal(row: IssuedLetterState): string | null {
  const status = certificateStatus(row);
  if (status === 'Revoked') return ISSUED_LETTER_MESSAGES.alreadyRevoked;
  if (status === 'Superseded') return ISSUED_LETTER_MESSAGES.superseded;
  return null;
}

/** One coverage line of a certificate: policy number, its period and its limits, as printed. */
interface CertificateFactsPolicy {
  policyNumber: string;
  /** `yyyy-mm-dd` or ISO instants, as the letter's snapshot holds them */
  effective: string;
  expiration: string;
  /** dollars as stored (decimal strings) */
  eachClaim: string;
  annualAggregate: string;
}

/** What a certificate states, for the public page (a snapshot taken when it was printed). */
interface CertificateFacts {
  kind: 'certificate';
  /** "Certificate of Insurance" */
  kindLabel: string;
  /** "Auto Liability: Rental" and the like */
  subtypeLabel: string;
  certificateHolder: string;
  /** the insured activity in one line */
  insuredActivity: string;
  coveragePeriod: { from: string; to: string };
  /** type of coverage ("General Liability" and the like) */
  coverageLine: string;
  policies: CertificateFactsPolicy[];
  /** the office's day of issue, `yyyy-mm-dd` */
  dateIssued: string;
  /** the office's time zone the dates read in */
  timeZone: string;
}

/** What a claim-history letter states, for the public page: the clinician and the date only (no claims data). */
interface ClaimHistoryLetterFacts {
  kind: 'claimHistoryLetter';
  kindLabel: string;
  clinicianName: string;
  /** the office's day of issue, `yyyy-mm-dd` */
  letterDate: string;
  timeZone: string;
}

export type IssuedLetterFacts = CertificateFacts | ClaimHistoryLetterFacts;

/** The party a letter is for, as its public page shows it: a certificate's holder, a claim-history letter's clinician. */
const partyOf = (facts: IssuedLetterFacts): string =>
  (facts.kind === 'certificate' ? facts.certificateHolder : facts.clinicianName) ?? '';

/** A name as people mean it: letter case, spacing and compatibility forms (full-width letters and the like) ignored. */
const sameName = (a: string, b: string) => {
  const plain = (name: string) => name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLocaleLowerCase('en-US');
  return plain(a) !== '' && plain(a) === plain(b);
};

/** Whether the page of a superseded letter may lead its holder to the letter that replaced it (RULES above). */
export function successorShownToHolder(superseded: IssuedLetterFacts, successor: IssuedLetterFacts): boolean {
  return superseded.kind === successor.kind && sameName(partyOf(superseded), partyOf(successor));
}

/** The insured activity in one line: the description's values joined, long text cut at `max` characters. */
export function oneLineActivity(description: Array<[string, string]>, max = 200): string {
  const text = description.map(([label, value]) => `${label}: ${value.replace(/\s+/g, ' ').trim()}`).join('; ');
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/**
 * The email the requester (and the request's other recipients) receive when a certificate is revoked: a template of
 * its own on the templates page, seeded beside the others (db/seed-data.ts). What was revoked and why reaches it as
 * `{{additionalInformation}}`, the variable for what a particular email must say.
 */
export const CERTIFICATE_REVOKED_TEMPLATE = 'Certificate Revoked';
/** after the wake-up's (60) */
export const CERTIFICATE_REVOKED_TEMPLATE_ORDER = 65;
/** Why the revocation email cannot be sent on demand (only sent again after it failed). */
export const REVOKED_EMAIL_ON_DEMAND = 'The "Certificate Revoked" email goes out when a certificate is revoked; only a failed one can be sent again.';

interface RevokedLetterDescription {
  kindLabel: string;
  /** printed form `XXXX-XXXX-XXXXX` */
  code: string;
  /** the office's date of issue as people read it */
  issuedOn: string;
  reason: RevokeReason;
  note?: string | null;
}

/** The lines the revocation email says (its `additionalInformation`) and the audit row's text. */
export function revokedNoticeText(d: RevokedLetterDescription): string {
  const note = d.note?.trim();
  return `The ${d.kindLabel} with verification code ${d.code}, issued ${d.issuedOn}, has been revoked. Reason: ${d.reason}.`
    + (note ? ` ${note}` : '')
    + ' Anyone who checks its code is told it is no longer valid.';
}

export const revokeAuditText = (d: RevokedLetterDescription) =>
  `Revoked ${d.kindLabel} ${d.code} (issued ${d.issuedOn}): ${d.reason}${d.note?.trim() ? ` (${d.note.trim()})` : ''}`;
