/**
 * Passwords (spec 1 §5 Change password, Reset password; spec 2 §7.9, §8.3): change with the current password,
 * forgot (non-revealing; the link goes out through the account-email workflow), reset with a single-use,
 * expiring token whose secret is stored only hashed. Every new password ends the user's earlier sessions.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { AppConfig } from '../../config/app-config';
import { PasswordResetSchema, UserSchema, type User } from '../../db/entities';
import { parseResetToken, RESET_TOKEN_TTL_MS, resetSecretHash, secretMatches } from './password-reset-secret';
import { MESSAGES, PASSWORD_RULE } from '../../domain';
import { passwordResetEmailWorkflowId } from '../../workflows/account-email.messages';
import { hashPassword } from './password-hash';
import { invalid } from '../refusals';
import { startAccountEmail } from './account-emails';
import { assertCurrentPassword } from './current-password';

/** Stores a new password: today's hash, the expiry clock restarted, the forced change lifted, old sessions ended. */
async function setPassword(user: User, password: string): Promise<void> {
  user.passwordHash = await hashPassword(password);
  user.pswdResetAt = new Date();
  user.mustChangePassword = false;
  user.sessionVersion += 1;
}

export async function changePassword(em: EntityManager, userId: number, body: { currentPassword?: string; password?: string; confirmPassword?: string }): Promise<User> {
  const { currentPassword = '', password = '', confirmPassword } = body;
  const missing: Record<string, string> = {};
  if (!currentPassword) missing.currentPassword = MESSAGES.required;
  if (!password) missing.password = MESSAGES.required;
  if (confirmPassword !== undefined && !confirmPassword) missing.confirmPassword = MESSAGES.required;
  if (Object.keys(missing).length) throw invalid(MESSAGES.required, missing);
  await assertCurrentPassword(em, userId, currentPassword);
  if (!PASSWORD_RULE.test(password)) throw invalid(MESSAGES.passwordRequirements, { password: MESSAGES.passwordRequirements });
  if (confirmPassword !== undefined && confirmPassword !== password) {
    throw invalid(MESSAGES.passwordsDontMatch, { confirmPassword: MESSAGES.passwordsDontMatch });
  }
  if (password === currentPassword) throw invalid(MESSAGES.samePassword, { password: MESSAGES.samePassword });
  const user = await em.findOneOrFail(UserSchema, { id: userId });
  await setPassword(user, password);
  await em.flush();
  return user;
}

/**
 * Forgot password: for an active external user with that email, a reset token and its email; for anybody else,
 * nothing. The answer is the same either way.
 */
export async function requestPasswordReset(em: EntityManager, temporal: Client, config: AppConfig, rawEmail: string): Promise<void> {
  const email = rawEmail.trim().toLowerCase();
  const user = await em.findOne(UserSchema, { email, isExternal: true, deletedAt: null });
  if (!user) return;
  const id = randomUUID();
  const now = new Date();
  em.create(PasswordResetSchema, {
    id, createdAt: now, userId: user.id, secretHash: resetSecretHash(config.jwtSecret, id),
    expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
  });
  await em.flush();
  await startAccountEmail(temporal, config, passwordResetEmailWorkflowId(id), { kind: 'passwordReset', resetId: id });
}

async function validReset(em: EntityManager, token: string) {
  const parsed = parseResetToken(token);
  if (!parsed) return null;
  const reset = await em.findOne(PasswordResetSchema, { id: parsed.id }, { populate: ['secretHash'] });
  if (!reset || !secretMatches(parsed.secret, reset.secretHash)) return null;
  if (reset.usedAt || reset.expiresAt.getTime() <= Date.now()) return null;
  return reset;
}

export async function isResetTokenValid(em: EntityManager, token: string): Promise<boolean> {
  return (await validReset(em, token)) !== null;
}

/** Sets the new password and spends the token; a token already spent (even by a concurrent call) is invalid. */
export async function resetPassword(em: EntityManager, token: string, body: { password?: string; confirmPassword?: string }): Promise<{ id: number; email: string }> {
  const { password = '', confirmPassword } = body;
  if (!password) throw invalid(MESSAGES.required, { password: MESSAGES.required });
  if (!PASSWORD_RULE.test(password)) throw invalid(MESSAGES.passwordRequirements, { password: MESSAGES.passwordRequirements });
  if (confirmPassword !== undefined && confirmPassword !== password) {
    throw invalid(MESSAGES.confirmationMismatch, { confirmPassword: MESSAGES.confirmationMismatch });
  }
  const reset = await validReset(em, token);
  if (!reset) throw invalid(MESSAGES.resetTokenInvalid, {}, { reason: 'invalidToken' });
  return em.transactional(async (tx) => {
    // Spend the token atomically: only one call can move used_at from null.
    const spent = await tx.nativeUpdate(PasswordResetSchema, { id: reset.id, usedAt: null, expiresAt: { $gt: new Date() } }, { usedAt: new Date() });
    if (spent !== 1) throw invalid(MESSAGES.resetTokenInvalid, {}, { reason: 'invalidToken' });
    const user = await tx.findOneOrFail(UserSchema, { id: reset.userId });
    // Only external accounts hold passwords: one single sign-on has taken over since the link was sent has none.
    if (!user.isExternal) throw invalid(MESSAGES.resetTokenInvalid, {}, { reason: 'invalidToken' });
    await setPassword(user, password);
    // Any other link the user was sent stops working too.
    await tx.nativeUpdate(PasswordResetSchema, { userId: user.id, usedAt: null }, { usedAt: new Date() });
    return { id: user.id, email: user.email };
  });
}
