/**
 * The public verification answers (`GET /verify/:code`, `POST /verify/pdf`): no sign-in, so these schemas are the
 * whitelist of what a holder may learn. A certificate shows what its paper says (kind, holder, insured activity,
 * coverage period, policies and limits, date issued); a claim-history letter only the clinician's name and its date.
 * An unknown code, a malformed one and a PDF we did not issue get one and the same answer (`NotIssued`, every
 * other field null), so the answer tells nothing about which codes exist. Rules: domain/issued-letters.ts,
 * domain/verification-code.ts.
 */
import { Type, type Static } from 'typebox';
import { CERTIFICATE_STATUSES, ISSUED_LETTER_KINDS, REVOKE_REASONS } from '../domain';
import { Nullable, NullableTimestamp, StringEnum } from './primitives';

/** What a check can answer: the statuses of an issued letter, or that we did not issue it. */
const VERIFICATION_STATUSES = [...CERTIFICATE_STATUSES, 'NotIssued'] as const;

const Day = Type.String({ description: 'a day, `yyyy-mm-dd` (or an ISO instant in older snapshots), read in `timeZone`' });

const VerifiedCertificate = Type.Object({
  subtypeLabel: Type.String({ description: '"Auto Liability: Rental" and the like' }),
  certificateHolder: Type.String(),
  insuredActivity: Type.String({ description: 'the insured activity in one line' }),
  coveragePeriod: Type.Object({ from: Day, to: Day }),
  coverageLine: Type.String({ description: 'type of coverage' }),
  policies: Type.Array(Type.Object({
    policyNumber: Type.String(),
    effective: Day,
    expiration: Day,
    eachClaim: Type.String({ description: 'dollars, decimal string' }),
    annualAggregate: Type.String({ description: 'dollars, decimal string' }),
  })),
  dateIssued: Day,
  timeZone: Type.String({ description: 'the office time zone the dates read in' }),
});

const VerifiedClaimHistoryLetter = Type.Object({
  clinicianName: Type.String(),
  letterDate: Day,
  timeZone: Type.String(),
});

export const VerificationAnswer = Type.Object({
  status: StringEnum(VERIFICATION_STATUSES, { description: 'NotIssued: no letter we issued has this code or these exact bytes' }),
  code: Nullable(Type.String({ description: 'the verification code as printed (XXXX-XXXX-XXXXX)' })),
  kind: Nullable(StringEnum(ISSUED_LETTER_KINDS) as unknown as ReturnType<typeof Type.String>),
  kindLabel: Nullable(Type.String()),
  issuedAt: NullableTimestamp,
  certificate: Nullable(VerifiedCertificate),
  claimHistoryLetter: Nullable(VerifiedClaimHistoryLetter),
  superseded: Nullable(Type.Object({
    on: Type.String({ format: 'date-time' }),
    newCode: Nullable(Type.String({
      description: 'the code of the letter that replaced it, as printed (check it for its own status); null when that letter is for another holder',
    })),
  })),
  revoked: Nullable(Type.Object({
    on: Type.String({ format: 'date-time' }),
    reasonCategory: StringEnum(REVOKE_REASONS),
  })),
});
export type VerificationAnswer = Static<typeof VerificationAnswer>;

/**
 * A code as printed, typed or scanned. Anything the router takes (100 characters) is accepted here, so that a malformed
 * code reaches the same lookup and the same answer as an unknown one.
 */
export const VerificationCodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 100, description: 'the verification code, as printed or typed (the router refuses longer path segments, 414, on every route)' }) });
