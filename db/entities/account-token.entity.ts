import { defineEntity, p } from '@mikro-orm/core';

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

/** ALTCHA challenges already redeemed, kept until they expire so a solution is never accepted twice. */
export const UsedChallengeSchema = defineEntity({
  name: 'UsedChallenge',
  tableName: 'used_challenges',
  properties: {
    signature: p.string().primary(),
    expiresAt: p.datetime(),
  },
});

/**
 * An email-confirmation link: proves that `userId` owns `email`, either the address they registered with or
 * the one they asked to change to. Like a reset token: the link carries `<id>.<secret>`, only the secret's SHA-256 is
 * stored, single use, valid 24 hours.
 */
export const EmailConfirmationSchema = defineEntity({
  name: 'EmailConfirmation',
  tableName: 'email_confirmations',
  properties: {
    id: p.uuid().primary(),
    createdAt: p.datetime().onCreate(() => new Date()),
    userId: p.integer().index(),
    email: p.string(),
    secretHash: p.string().hidden(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    /** Set by the account-email activity once the mail server took the link. */
    emailedAt: p.datetime().nullable(),
    /** For an address change: set once the notice to the address in force went out. */
    noticeEmailedAt: p.datetime().nullable(),
  },
});
