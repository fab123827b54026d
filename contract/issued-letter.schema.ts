/**
 * Issued certificates and claim-history letters of a request (`GET /requests/:id/certificates`) and an
 * administrator's revocation (`POST /requests/:id/certificates/:code/revoke`). Rules: domain/issued-letters.ts,
 * domain/verification-code.ts.
 */
import { Type, type Static } from 'typebox';
import { CERTIFICATE_STATUSES, ISSUED_LETTER_KINDS, REVOKE_NOTE_MAX_LENGTH, REVOKE_REASONS, type RevokeReason } from '../domain';
import { Id, Nullable, NullableTimestamp, StringEnum, Timestamp } from './primitives';

/** A code as printed (`XXXX-XXXX-XXXXX`) or typed: the server normalizes it (case, dashes, look-alikes). */
const VerificationCodeParam = Type.String({ minLength: 1, maxLength: 40, description: 'the verification code, as printed or typed' });

/** One issued letter of a request, newest first in the list. */
export const IssuedLetterItem = Type.Object({
  code: Type.String({ description: 'the verification code as printed (XXXX-XXXX-XXXXX)' }),
  kind: StringEnum(ISSUED_LETTER_KINDS),
  status: StringEnum(CERTIFICATE_STATUSES),
  issuedAt: Timestamp,
  supersededAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
  revokeReason: Type.Unsafe<RevokeReason | null>({ type: ['string', 'null'], enum: [...REVOKE_REASONS, null] }),
  documentId: Nullable(Type.Integer({ minimum: 1, description: 'the PDF as a document of the request; null once an administrator removed it' })),
});
export type IssuedLetterItem = Static<typeof IssuedLetterItem>;

/** Renewal season, for administrators on a certificate request: its mark and the policy years it was renewed for. */
export const RequestRenewal = Type.Object({
  preference: Type.Unsafe<'auto' | 'never' | null>({ type: ['string', 'null'], enum: ['auto', 'never', null] }),
  renewedFor: Type.Array(Type.String({ description: 'a policy year, "2027–2028"' })),
});
export const IssuedLetterList = Type.Object({
  items: Type.Array(IssuedLetterItem),
  renewal: Type.Optional(RequestRenewal),
});

export const CertificateParams = Type.Object({ id: Id, code: VerificationCodeParam });

/** `POST /requests/:id/certificates/:code/revoke` (administrators). */
export const RevokeCertificateBody = Type.Object({
  reason: StringEnum(REVOKE_REASONS),
  note: Type.Optional(Nullable(Type.String({ maxLength: REVOKE_NOTE_MAX_LENGTH, description: 'required when the reason is "Other"' }))),
}, { additionalProperties: false });
export type RevokeCertificateBody = Static<typeof RevokeCertificateBody>;
