/**
 * Renders and sends an account email. Idempotent per reset token: `emailedAt` marks it sent, and the Message-ID is
 * derived from the token id, so the one retry window (mail accepted, worker died before the mark) gives a copy
 * mail clients fold. A used or expired token is not emailed.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { PasswordResetSchema, UserSchema } from '../../db/entities';
import { PRODUCT_TITLE } from '../../domain';
import { resetLinkToken } from '../../db/password-reset-secret';
import type { Mailer } from '../mailer';
import type { AccountEmailActivities } from '../account-email.types';

export function sendAccountEmailActivity(deps: { orm: Orm; mailer: Mailer; config: AppConfig }): AccountEmailActivities['sendAccountEmail'] {
  return async function sendAccountEmail(input) {
    const em = deps.orm.em.fork();
    const reset = await em.findOne(PasswordResetSchema, { id: input.resetId });
    if (!reset) throw ApplicationFailure.nonRetryable(`No password reset ${input.resetId}`, 'NotFound');
    if (reset.emailedAt) return { sent: false, reason: 'already sent' };
    if (reset.usedAt || reset.expiresAt.getTime() <= Date.now()) return { sent: false, reason: 'token no longer valid' };
    const user = await em.findOne(UserSchema, { id: reset.userId });
    if (!user) return { sent: false, reason: 'user gone' };
    const link = `${deps.config.publicUrl.replace(/\/$/, '')}/login/password-reset/${resetLinkToken(deps.config.jwtSecret, reset.id)}`;
    const minutes = Math.round((reset.expiresAt.getTime() - reset.createdAt.getTime()) / 60_000);
    const text = `Dear ${user.firstName} ${user.lastName},\n\n` +
      `We received a request to reset the password of your ${PRODUCT_TITLE} account.\n\n` +
      `Choose a new password here (the link works once, for ${minutes} minutes):\n${link}\n\n` +
      'If you did not ask for this, ignore this email: your password stays as it is.\n\nRisk Management\n';
    try {
      await deps.mailer.sendMail({
        from: deps.config.mailFrom, to: user.email, subject: 'Reset your password', text,
        messageId: `<password-reset.${reset.id}@coi-portal>`,
      });
    } catch (error) {
      const smtp = error as Error & { responseCode?: number; code?: string };
      if ((smtp.responseCode ?? 0) >= 500 || smtp.code === 'EENVELOPE') throw ApplicationFailure.nonRetryable(smtp.message, 'SmtpRejected');
      throw error;
    }
    reset.emailedAt = new Date();
    await em.flush();
    return { sent: true };
  };
}
