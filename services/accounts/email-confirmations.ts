/**
 * Proven email ownership. A registration, or a change of address (the user's own profile, or an
 * administrator editing a registrant), sends a confirmation link to the address to prove; a change also tells the
 * address in force. Until the link is used nothing is granted by the new address: the session sees
 * `emailConfirmed: false` (no administrator rights, no requests that merely name it; session-user.ts,
 * request-access.ts), and a changed address waits in `pendingEmail` while the old one stays in force.
 *
 * Links are single use, valid 24 hours, and only their secret's hash is stored (services/accounts/password-reset-secret.ts). A user
 * may ask for at most {@link LINKS_PER_HOUR} links an hour, counted in PostgreSQL so every API process agrees; every
 * account email also counts against the daily limits of emails to chosen addresses (chosen-address-mail.ts).
 *
 * An address another account already holds gets no link but a notice to its owner, and the caller hears the same
 * answer as for a free address: the portal never tells a caller whether an address has an account.
 */
import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { AppConfig } from '../../config/app-config';
import { EmailConfirmationSchema, UserSchema, type User } from '../../db/entities';
import { reserveChosenAddressMail } from '../limits/chosen-address-mail';
import { CONFIRMATION_TOKEN_TTL_MS, confirmationSecretHash, parseResetToken, secretMatches } from './password-reset-secret';
import { MESSAGES } from '../../domain';
import { emailChangeNoticeWorkflowId, emailConfirmationWorkflowId } from '../../workflows/account-email.messages';
import type { ConfirmationValidity } from '../../contract/email-confirmation.schema';
import type { Static } from 'typebox';
import { conflict, invalid, overQuota } from '../refusals';
import { startAccountEmail } from './account-emails';
import { recordSecurityEvent } from '../desk/security-log';

const LINKS_PER_HOUR = 5;

export interface ConfirmationContext { em: EntityManager; temporal: Client; config: AppConfig; ip?: string | null }

/**
 * Stores a link for `email` and queues its email (and, for a change, the notice to the address in force). The
 * caller reserved the emails (reserveChosenAddressMail). When another account holds `email`, its owner is told
 * instead and no link leaves: the row is stored all the same, so the caller's answer and later counts are alike.
 */
/** Whether an account other than `userId` has `email` as its address. */
export async function emailHeldByAnother(em: EntityManager, email: string, userId: number): Promise<boolean> {
  return (await em.count(UserSchema, { email, id: { $ne: userId } })) > 0;
}

export async function sendConfirmationLink(ctx: ConfirmationContext, user: User, email: string, oldEmail?: string): Promise<void> {
  const taken = await emailHeldByAnother(ctx.em, email, user.id);
  const id = randomUUID();
  const now = new Date();
  ctx.em.create(EmailConfirmationSchema, {
    id, createdAt: now, userId: user.id, email, secretHash: confirmationSecretHash(ctx.config.jwtSecret, id),
    expiresAt: new Date(now.getTime() + CONFIRMATION_TOKEN_TTL_MS),
  });
  await ctx.em.flush();
  await startAccountEmail(ctx.temporal, ctx.config, emailConfirmationWorkflowId(id),
    taken ? { kind: 'emailInUseNotice', confirmationId: id } : { kind: 'emailConfirmation', confirmationId: id });
  if (oldEmail && oldEmail !== email) {
    await startAccountEmail(ctx.temporal, ctx.config, emailChangeNoticeWorkflowId(id), { kind: 'emailChangeNotice', confirmationId: id, oldEmail });
  }
}

/** The address a user still has to prove: a pending change, else an unconfirmed email; null when all is proven. */
const addressToConfirm = (user: Pick<User, 'email' | 'pendingEmail' | 'emailConfirmedAt'>): string | null =>
  user.pendingEmail ?? (user.emailConfirmedAt ? null : user.email);

/** "Send the link again" (the dashboard banner): a new link for the address still to prove, within the hourly limit. */
export async function resendConfirmationLink(ctx: ConfirmationContext, userId: number): Promise<{ email: string }> {
  const user = await ctx.em.findOneOrFail(UserSchema, { id: userId });
  const email = addressToConfirm(user);
  if (!email) throw invalid(MESSAGES.confirmationAlreadyDone, {}, { reason: 'alreadyConfirmed' });
  const recent = await ctx.em.count(EmailConfirmationSchema, { userId, createdAt: { $gt: new Date(Date.now() - 3_600_000) } });
  if (recent >= LINKS_PER_HOUR) throw overQuota(MESSAGES.confirmationTooMany, { reason: 'tooManyLinks' });
  await reserveChosenAddressMail(ctx.em, 'account', { userId, email: user.email, ip: ctx.ip }, [email]);
  await sendConfirmationLink(ctx, user, email);
  return { email };
}

async function findValidLink(em: EntityManager, config: AppConfig, token: string) {
  const parsed = parseResetToken(token);
  if (!parsed) return null;
  const link = await em.findOne(EmailConfirmationSchema, { id: parsed.id }, { populate: ['secretHash'] });
  if (!link || !secretMatches(parsed.secret, link.secretHash) || link.usedAt || link.expiresAt.getTime() <= Date.now()) return null;
  // The link proves the address it was sent to only while that address is still the one to prove.
  const user = await em.findOne(UserSchema, { id: link.userId });
  if (!user || user.deletedAt || addressToConfirm(user) !== link.email) return null;
  return { link, user };
}

/**
 * Whether a link is valid and, when it is, the account it would give the address to: whoever opens it sees whose
 * account they are confirming (names and company as the account typed them, when it registered) before deciding.
 */
export async function describeConfirmationLink(em: EntityManager, config: AppConfig, token: string): Promise<Static<typeof ConfirmationValidity>> {
  const found = await findValidLink(em, config, token);
  if (!found) return { isValid: false };
  const { link, user } = found;
  return {
    isValid: true,
    account: {
      email: link.email, firstName: user.firstName, lastName: user.lastName, company: user.company ?? null,
      registeredAt: user.createdAt.toISOString(), isChange: user.email !== link.email,
    },
  };
}

const invalidLink = () => invalid(MESSAGES.confirmationLinkInvalid, {}, { reason: 'invalidToken' });

/**
 * Uses a link: spends it atomically (a second use, even concurrent, is refused), then marks the address proven, or
 * makes the pending address the user's email. Another account of the same kind that took the address meanwhile: 409.
 */
export async function confirmEmail(ctx: ConfirmationContext, token: string): Promise<{ email: string }> {
  const found = await findValidLink(ctx.em, ctx.config, token);
  if (!found) throw invalidLink();
  const { link } = found;
  return ctx.em.transactional(async (tx) => {
    const now = new Date();
    const spent = await tx.nativeUpdate(EmailConfirmationSchema, { id: link.id, usedAt: null, expiresAt: { $gt: now } }, { usedAt: now });
    if (spent !== 1) throw invalidLink();
    const user = await tx.findOneOrFail(UserSchema, { id: link.userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (addressToConfirm(user) !== link.email) throw invalidLink();
    const oldEmail = user.email;
    if (user.pendingEmail === link.email && user.email !== link.email) {
      const taken = await tx.count(UserSchema, { email: link.email, isExternal: user.isExternal, id: { $ne: user.id } });
      if (taken) throw conflict(MESSAGES.emailInUse, { email: MESSAGES.emailInUse }, { reason: 'emailInUse' });
      user.email = link.email;
    }
    user.pendingEmail = null;
    user.emailConfirmedAt = now;
    // Every other link of this user stops working: it proved an address that is no longer the one to prove.
    await tx.nativeUpdate(EmailConfirmationSchema, { userId: user.id, usedAt: null }, { usedAt: now });
    await tx.flush();
    await recordSecurityEvent(tx, { kind: 'emailConfirmed', userId: user.id, email: user.email, ip: ctx.ip, detail: oldEmail !== user.email ? { from: oldEmail } : {} });
    return { email: user.email };
  });
}
