/**
 * The public check of an issued certificate or claim-history letter: by the code printed on it, or by the SHA-256 of
 * the PDF file itself. One indexed lookup each (the unique code, the digest's index), joined to the letter that
 * superseded it for its code and facts (its code is shown only to the same holder: domain/issued-letters.ts).
 *
 * An unknown code, a malformed one and a file we did not issue take the same path (a malformed code is looked up
 * as a value no code can equal, rather than refused early) and get the same answer, so neither the body nor the time
 * to answer tells whether a code exists. A code reserved for a letter still being printed (`issued_at` null) is not
 * issued and unknown here.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type RawBuilder } from 'kysely';
import {
  certificateStatus, formatVerificationCode, isWellFormedVerificationCode, ISSUED_LETTER_KIND_LABELS, normalizeVerificationCode,
  successorShownToHolder, type IssuedLetterFacts, type IssuedLetterKind, type RevokeReason,
} from '../../domain';
import type { VerificationAnswer } from '../../contract/verification.schema';
import { kysely } from '../../db/kysely';

/** The answer for a code or a file we did not issue: the same whatever was asked. */
const NOT_ISSUED: VerificationAnswer = Object.freeze({
  status: 'NotIssued', code: null, kind: null, kindLabel: null, issuedAt: null,
  certificate: null, claimHistoryLetter: null, superseded: null, revoked: null,
}) as VerificationAnswer;

/** A value the lookup compares with that no stored code equals (they are 13 symbols of the alphabet). */
const NO_CODE = '-';

/** The letter matching `where` (a condition on `l`, an issued letter), with its successor's code. */
const lookup = (where: RawBuilder<unknown>) => sql<Row>`
  select l."verification_code", l."letter_kind", l."issued_at", l."superseded_at", l."revoked_at", l."revoke_reason", l."facts",
         n."verification_code" as "new_code", n."facts" as "new_facts"
    from "issued_letters" l
    left join "issued_letters" n on n."id" = l."superseded_by_id"
   where l."issued_at" is not null and ${where}`;
/** The code lookup (the bench times its SQL bare, beside the endpoint). */
export const codeLookup = (code: string) => lookup(sql`l."verification_code" = ${code} limit 1`);
const digestLookup = (sha256: Buffer) => lookup(sql`l."sha256" = ${sha256} order by l."issued_at" desc limit 1`);

interface Row {
  verification_code: string;
  letter_kind: IssuedLetterKind;
  issued_at: Date | string;
  superseded_at: Date | string | null;
  revoked_at: Date | string | null;
  revoke_reason: RevokeReason | null;
  facts: IssuedLetterFacts | string;
  new_code: string | null;
  new_facts: IssuedLetterFacts | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const factsOf = (value: IssuedLetterFacts | string) => (typeof value === 'string' ? JSON.parse(value) : value) as IssuedLetterFacts;

/** The public answer for a stored letter: its status and what its paper says (never the revocation's note). */
function answerOf(row: Row): VerificationAnswer {
  const facts = factsOf(row.facts);
  const status = certificateStatus({ revokedAt: row.revoked_at, supersededAt: row.superseded_at });
  return {
    status,
    code: formatVerificationCode(row.verification_code),
    kind: row.letter_kind,
    kindLabel: facts.kindLabel || ISSUED_LETTER_KIND_LABELS[row.letter_kind],
    issuedAt: iso(row.issued_at),
    certificate: facts.kind === 'certificate' ? {
      subtypeLabel: facts.subtypeLabel, certificateHolder: facts.certificateHolder, insuredActivity: facts.insuredActivity,
      coveragePeriod: facts.coveragePeriod, coverageLine: facts.coverageLine, policies: facts.policies,
      dateIssued: facts.dateIssued, timeZone: facts.timeZone,
    } : null,
    claimHistoryLetter: facts.kind === 'claimHistoryLetter'
      ? { clinicianName: facts.clinicianName, letterDate: facts.letterDate, timeZone: facts.timeZone } : null,
    // A revoked letter says so whatever replaced it; a superseded one names its successor to the same holder only.
    superseded: status === 'Superseded' && row.superseded_at ? {
      on: iso(row.superseded_at),
      newCode: row.new_code && row.new_facts && successorShownToHolder(facts, factsOf(row.new_facts)) ? formatVerificationCode(row.new_code) : null,
    } : null,
    revoked: status === 'Revoked' && row.revoked_at && row.revoke_reason
      ? { on: iso(row.revoked_at), reasonCategory: row.revoke_reason } : null,
  };
}

async function lookUp(em: EntityManager, query: RawBuilder<Row>): Promise<VerificationAnswer> {
  const { rows } = await query.execute(kysely(em));
  return rows[0] ? answerOf(rows[0]) : NOT_ISSUED;
}

/** The status of the letter printed with `typed` (a code as printed, typed or scanned). */
export function verifyCode(em: EntityManager, typed: string): Promise<VerificationAnswer> {
  const code = normalizeVerificationCode(typed);
  return lookUp(em, codeLookup(isWellFormedVerificationCode(code) ? code : NO_CODE));
}

/** How far into a file PDF readers look for its header. */
export const PDF_HEADER_BYTES = 1024;
/** Whether a file is a PDF by its header (PDF readers accept it within the first KB). */
export const looksLikePdf = (head: Buffer) => head.subarray(0, PDF_HEADER_BYTES).includes('%PDF-');

/** The status of the letter whose signed PDF has exactly this SHA-256 (one changed byte: not issued by us). */
export function verifyPdf(em: EntityManager, sha256: Buffer): Promise<VerificationAnswer> {
  return lookUp(em, digestLookup(sha256));
}
