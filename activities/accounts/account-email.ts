/**
 * Renders and sends an account email: a password-reset link, an email-confirmation link, the notice
 * to the address in force that a change was asked for, or the notice to the owner of an address another account
 * asked for. Idempotent per token row: a mark (`emailedAt`,
 * `noticeEmailedAt`) says it was sent, and the Message-ID is derived from the row id, so the one retry window (mail
 * accepted, worker died before the mark) gives a copy mail clients fold. A used or expired link is not emailed.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { EmailConfirmationSchema, PasswordResetSchema, UserSchema } from '../../db/entities';
import { formatOfficeDateTime, PRODUCT_TITLE } from '../../domain';
import { confirmationLinkToken, resetLinkToken } from '../../services/accounts/password-reset-secret';
import type { Mailer } from '../mailer';
import type { AccountEmailActivities } from '../../workflows/account-email-activities.types';

type Deps = { orm: Orm; mailer: Mailer; config: AppConfig };
type Message = { to: string; subject: string; text: string; messageId: string };

const hours = (from: Date, to: Date) => Math.round((to.getTime() - from.getTime()) / 3_600_000);
const baseUrl = (config: AppConfig) => config.publicUrl.replace(/\/$/, '');

async function send(deps: Deps, message: Message): Promise<void> {
  try {
    await deps.mailer.sendMail({ from: deps.config.mailFrom, ...message });
  } catch (error) {
    const smtp = error as Error & { responseCode?: number; code?: string };
    if ((smtp.responseCode ?? 0) >= 500 || smtp.code === 'EENVELOPE') throw ApplicationFailure.nonRetryable(smtp.message, 'SmtpRejected');
    throw error;
  }
}

export function sendAccountEmailActivity(deps: Deps): AccountEmailActivities['sendAccountEmail'] {
  return async function sendAccountEmail(input) {
    const em = deps.orm.em.fork();
    if (input.kind === 'passwordReset') {
      const reset = await em.findOne(PasswordResetSchema, { id: input.resetId });
      if (!reset) throw ApplicationFailure.nonRetryable(`No password reset ${input.resetId}`, 'NotFound');
      if (reset.emailedAt) return { sent: false, reason: 'already sent' };
      if (reset.usedAt || reset.expiresAt.getTime() <= Date.now()) return { sent: false, reason: 'token no longer valid' };
      const user = await em.findOne(UserSchema, { id: reset.userId });
      if (!user) return { sent: false, reason: 'user gone' };
      const link = `${baseUrl(deps.config)}/login/password-reset/${resetLinkToken(deps.config.jwtSecret, reset.id)}`;
      const minutes = Math.round((reset.expiresAt.getTime() - reset.createdAt.getTime()) / 60_000);
      await send(deps, {
        to: user.email, subject: 'Reset your password', messageId: `<password-reset.${reset.id}@${deps.config.reply.messageIdDomain}>`,
        text: `Dear ${user.firstName} ${user.lastName},\n\n`
          + `We received a request to reset the password of your ${PRODUCT_TITLE} account.\n\n`
          + `Choose a new password here (the link works once, for ${minutes} minutes):\n${link}\n\n`
          + 'If you did not ask for this, ignore this email: your password stays as it is.\n\nRisk Management\n',
      });
      reset.emailedAt = new Date();
      await em.flush();
      return { sent: true };
    }

    const confirmation = await em.findOne(EmailConfirmationSchema, { id: input.confirmationId });
    if (!confirmation) throw ApplicationFailure.nonRetryable(`No email confirmation ${input.confirmationId}`, 'NotFound');
    const user = await em.findOne(UserSchema, { id: confirmation.userId });
    if (!user) return { sent: false, reason: 'user gone' };

    if (input.kind === 'emailChangeNotice') {
      if (confirmation.noticeEmailedAt) return { sent: false, reason: 'already sent' };
      await send(deps, {
        to: input.oldEmail, subject: 'Your email address is being changed', messageId: `<email-change-notice.${confirmation.id}@${deps.config.reply.messageIdDomain}>`,
        text: `Dear ${user.firstName} ${user.lastName},\n\n`
          + `Someone asked to change the email address of your ${PRODUCT_TITLE} account from ${input.oldEmail} to ${confirmation.email}.\n\n`
          + `The change takes effect only when the link we sent to ${confirmation.email} is used; until then this address stays in force.\n\n`
          + 'If this was not you, sign in and change your password, and contact Risk Management.\n\nRisk Management\n',
      });
      confirmation.noticeEmailedAt = new Date();
      await em.flush();
      return { sent: true };
    }

    if (confirmation.emailedAt) return { sent: false, reason: 'already sent' };

    if (input.kind === 'emailInUseNotice') {
      // Greets the owner with their own account's names, and repeats nothing the asker typed: no relay of chosen text.
      const owner = await em.findOne(UserSchema, { email: confirmation.email, id: { $ne: user.id } }, { orderBy: { isExternal: 'desc' } });
      await send(deps, {
        to: confirmation.email, subject: 'Someone asked to use your email address', messageId: `<email-in-use.${confirmation.id}@${deps.config.reply.messageIdDomain}>`,
        text: `${owner ? `Dear ${owner.firstName} ${owner.lastName}` : 'Hello'},\n\n`
          + `Another account of the ${PRODUCT_TITLE} asked to use ${confirmation.email} as its email address. `
          + 'This address already belongs to your account, so nothing was changed and no confirmation link was sent.\n\n'
          + 'You do not need to do anything. If you expected this, sign in with this address as usual; if you did not, '
          + 'you may tell Risk Management.\n\nRisk Management\n',
      });
      confirmation.emailedAt = new Date();
      await em.flush();
      return { sent: true };
    }

    if (confirmation.usedAt || confirmation.expiresAt.getTime() <= Date.now()) return { sent: false, reason: 'link no longer valid' };
    const link = `${baseUrl(deps.config)}/login/confirm-email/${confirmationLinkToken(deps.config.jwtSecret, confirmation.id)}`;
    const registered = formatOfficeDateTime(user.createdAt, deps.config.clockPolicy.calendar.timeZone);
    // The reader may not be the account's holder (anyone can type an address): say whose account asks, as that
    // account typed itself, and what a click gives it, so the owner of a mailbox never confirms blindly.
    await send(deps, {
      to: confirmation.email, subject: 'Confirm your email address', messageId: `<email-confirmation.${confirmation.id}@${deps.config.reply.messageIdDomain}>`,
      text: 'Hello,\n\n'
        + `An account of the ${PRODUCT_TITLE} asks to use ${confirmation.email} as its email address:\n\n`
        + `  Name: ${user.firstName} ${user.lastName}\n`
        + `  Company: ${user.company ?? '(none)'}\n`
        + `  Registered: ${registered}\n\n`
        + `Confirming makes ${confirmation.email} this account's sign-in and contact address: whoever knows the account's password `
        + 'signs in with it, receives its emails and sees the requests that name this address. It never gives administrator rights.\n\n'
        + `If this is your account, confirm it here (the link works once, for ${hours(confirmation.createdAt, confirmation.expiresAt)} hours):\n${link}\n\n`
        + 'If you do not recognise this account, do not use the link: ignore this email and nothing changes.\n\nRisk Management\n',
    });
    confirmation.emailedAt = new Date();
    await em.flush();
    return { sent: true };
  };
}
