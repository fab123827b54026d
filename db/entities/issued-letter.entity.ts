import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { IssuedLetterFacts, IssuedLetterKind, RevokeReason } from '../../domain';
import { baseProperties } from './common';

/**
 * A certificate or claim-history letter the portal issued: its verification code, the SHA-256 of the signed PDF,
 * its status and the facts the public page shows (Migration20261128100001 says how a row lives; its foreign keys,
 * partial indexes and checks live in that migration only, as for the other children of a request).
 * A row with `issuedAt` null is a code reserved by a letter still being printed: not issued, unknown to the public.
 */
export const IssuedLetterSchema = defineEntity({
  name: 'IssuedLetter',
  tableName: 'issued_letters',
  properties: {
    ...baseProperties,
    requestId: p.integer(),
    documentId: p.integer().nullable(),
    letterKind: p.string().length(32).$type<IssuedLetterKind>(),
    /** normalized (13 symbols, no dashes): domain/verification-code.ts */
    verificationCode: p.string().length(13).unique(),
    /** SHA-256 of the signed PDF's bytes */
    sha256: p.blob().nullable(),
    /** the effect that printed it, so a retried activity prints the same code */
    idempotencyKey: p.string().unique(),
    issuedAt: p.datetime().nullable(),
    supersededById: p.integer().nullable(),
    supersededAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    revokeReason: p.string().length(64).$type<RevokeReason>().nullable(),
    revokeNote: p.text().nullable(),
    revokedBy: p.integer().nullable(),
    facts: p.json<IssuedLetterFacts>(),
  },
});
export type IssuedLetter = InferEntity<typeof IssuedLetterSchema>;
