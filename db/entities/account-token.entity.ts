import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A password-reset token (spec 1 §3 "Password reset: token id, isValid"). The link carries `<id>.<secret>`; only the
 * SHA-256 of the secret is stored. Single use (`usedAt`) and short-lived (`expiresAt`).
 */
export const PasswordResetSchema = defineEntity({
  name: 'PasswordReset',
  tableName: 'password_resets',
  properties: {
    id: p.uuid().primary(),
    createdAt: p.datetime().onCreate(() => new Date()),
    userId: p.integer().index(),
    secretHash: p.string().hidden(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    /** Set by the account-email activity once the mail server took the link. */
    emailedAt: p.datetime().nullable(),
  },
});
export type PasswordReset = InferEntity<typeof PasswordResetSchema>;

/** ALTCHA challenges already redeemed, kept until they expire so a solution is never accepted twice. */
export const UsedChallengeSchema = defineEntity({
  name: 'UsedChallenge',
  tableName: 'used_challenges',
  properties: {
    signature: p.string().primary(),
    expiresAt: p.datetime(),
  },
});
export type UsedChallenge = InferEntity<typeof UsedChallengeSchema>;
