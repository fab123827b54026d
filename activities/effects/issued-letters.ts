/**
 * The verification record of a letter being issued (table `issued_letters`, Migration20261128100001): its code,
 * reserved before Chromium prints it and kept by the effect's key so a retried activity prints the same code, and
 * the facts the public verification page shows, taken from the same snapshot the letter is printed from.
 */
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely';
import {
  DEFAULT_OFFICE_TIME_ZONE, ISSUED_LETTER_KIND_LABELS, newVerificationCode, oneLineActivity, VERIFICATION_CODE_RANDOM_BYTES,
  type IssuedLetterFacts, type IssuedLetterKind,
} from '../../domain';
import type { LetterDocument } from '../pdf/letter-documents';

/** What kind of issued letter a document is; null for a letter of intent (not a certificate, no code). */
export function issuedLetterKindOf(doc: LetterDocument): IssuedLetterKind | null {
  if (doc.kind === 'certificate') return 'certificate';
  if (doc.kind === 'credentialing-letter') return 'claimHistoryLetter';
  return null;
}

/** The facts a holder compares with the paper. A claim-history letter's: the clinician and the date, no claims. */
export function issuedLetterFacts(doc: LetterDocument): IssuedLetterFacts | null {
  const timeZone = doc.timeZone ?? DEFAULT_OFFICE_TIME_ZONE;
  if (doc.kind === 'certificate') {
    return {
      kind: 'certificate', kindLabel: ISSUED_LETTER_KIND_LABELS.certificate, subtypeLabel: doc.subtypeLabel,
      certificateHolder: doc.holder.name, insuredActivity: oneLineActivity(doc.description),
      coveragePeriod: { from: doc.period.from, to: doc.period.to }, coverageLine: doc.coverageLine,
      policies: doc.policyYears.map((y) => ({
        policyNumber: y.policyNumber, effective: y.startDate, expiration: y.endDate, eachClaim: y.limitClaim, annualAggregate: y.annualAggregate,
      })),
      dateIssued: doc.issuedOn, timeZone,
    };
  }
  if (doc.kind === 'credentialing-letter') {
    return { kind: 'claimHistoryLetter', kindLabel: ISSUED_LETTER_KIND_LABELS.claimHistoryLetter, clinicianName: doc.clinicianName, letterDate: doc.issuedOn, timeZone };
  }
  return null;
}

/** Codes drawn before giving up: a collision at 65 bits is already improbable; five in a row means a broken source. */
const CODE_ATTEMPTS = 5;

/**
 * The code of the letter this effect prints: the one an earlier attempt reserved, or a new one. A new code that
 * happens to equal an issued one (unique key) is drawn again.
 */
export async function reserveVerificationCode(
  em: EntityManager,
  input: { requestId: number; key: string; kind: IssuedLetterKind; facts: IssuedLetterFacts },
  random: (size: number) => Uint8Array = randomBytes,
): Promise<{ id: number; code: string }> {
  const db = kysely(em);
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
    try {
      await sql`insert into issued_letters (request_id, letter_kind, verification_code, idempotency_key, facts, created_at, updated_at)
        values (${input.requestId}, ${input.kind}, ${newVerificationCode(random(VERIFICATION_CODE_RANDOM_BYTES))}, ${input.key}, ${JSON.stringify(input.facts)}::jsonb, now(), now())
        on conflict (idempotency_key) do nothing`.execute(db);
    } catch (error) {
      // the code is taken: draw another
      if ((error as { code?: string }).code === '23505' && /verification_code/.test((error as { constraint?: string }).constraint ?? String(error))) continue;
      throw error;
    }
    const row = await db.selectFrom('issued_letters').select(['id', 'verification_code as code'])
      .where('idempotency_key', '=', input.key).executeTakeFirst();
    if (row) return row;
  }
  throw new Error(`No free verification code after ${CODE_ATTEMPTS} draws`);
}
