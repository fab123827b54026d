/**
 * Passwords in Chromium: a user who forgot the password resets it from the emailed link and signs in; an external
 * user changes the password (and is told to wait once the window of wrong current passwords is full); an expired user is held on the password page with its heading; logout ends the token.
 * Every page is scanned by axe (tests/support/portal-browser.ts).
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { UserSchema } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { CURRENT_PASSWORD_FAILURES, CURRENT_PASSWORD_TOO_MANY } from '../../domain/abuse-limits';
import { call, createExternalUser, sessionFor } from '../support/api-helpers';
import { resetRateLimits } from '../support/portal-harness';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('passwords');
let page: Page;
beforeEach(() => { page = portal.page; });

const heading = (name: string) => page.getByRole('heading', { name, exact: true });
const stamp = Date.now();

describe('forgot and reset password', () => {
  const email = `forgot-${stamp}@clinic.example`;

  it('sends a reset link without saying whether the address exists, and the link sets a new password', async () => {
    await createExternalUser(portal.h, email, 'Forgot-Pass1');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await heading('Forgot Password?').waitFor();
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText(MESSAGES.required).waitFor();
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText(MESSAGES.forgotPasswordSent(email)).waitFor();
    await portal.shot('forgot-sent');

    const mail = await portal.h.sink.waitFor((m) => m.to.includes(email), 30_000);
    const link = /https?:\/\/\S+\/login\/password-reset\/\S+/.exec(mail.text)![0];
    await page.goto(new URL(link).pathname);
    await heading('Reset Password').waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('weak');
    await page.getByLabel('Confirm New Password').fill('weak2');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText(MESSAGES.passwordRequirements).waitFor();
    await page.getByText(MESSAGES.confirmationMismatch).waitFor();
    await portal.shot('reset-errors');
    await page.getByLabel('New Password', { exact: true }).fill('Reset-Pass1');
    await page.getByLabel('Confirm New Password').fill('Reset-Pass1');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText(MESSAGES.resetSucceeded).waitFor();

    // The link works once.
    await page.goto(new URL(link).pathname);
    await page.getByText(MESSAGES.resetTokenInvalid).waitFor();
    await portal.shot('reset-used');

    await portal.signIn(email, 'Reset-Pass1');
    await heading('Dashboard').waitFor();
    await portal.signOut();
  });
});

describe('change password', () => {
  const email = `change-${stamp}@clinic.example`;

  it('shows each message, then changes the password', async () => {
    await createExternalUser(portal.h, email, 'Change-Pass1');
    page = await portal.openAs({ email });
    await heading('Dashboard').waitFor();
    await page.getByRole('link', { name: 'New Password' }).first().click();
    await heading('Change Password').waitFor();
    await page.getByLabel('Current Password').fill('Wrong-Pass9');
    await page.getByLabel('New Password', { exact: true }).fill('Better-Pass2');
    await page.getByLabel('Re-type New Password').fill('Better-Pass3');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(MESSAGES.passwordsDontMatch).waitFor();
    await page.getByLabel('Re-type New Password').fill('Better-Pass2');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(MESSAGES.currentPasswordFailed).waitFor();
    await portal.shot('change-errors');
    // Guesses fill the window of wrong current passwords: the page says to wait, in the server's words.
    const session = await sessionFor(portal.h, email);
    for (let n = 1; n < CURRENT_PASSWORD_FAILURES.max; n += 1) {
      expect((await call(portal.h, session, 'PATCH', `/api/v1/users/${session.user.id}/password`, { currentPassword: `Guess-${n}-Pass1`, password: 'Better-Pass2' })).status).toBe(400);
    }
    await page.getByLabel('Current Password').fill('Change-Pass1');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(CURRENT_PASSWORD_TOO_MANY).waitFor();
    await portal.shot('change-wait');
    await resetRateLimits(portal.h.orm.em);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(MESSAGES.passwordChanged).waitFor();
    await portal.shot('change-done');
    // The session goes on with the new token.
    await page.getByRole('link', { name: 'Go to the Dashboard' }).click();
    await heading('Dashboard').waitFor();
    await portal.signOut();
  });
});

describe('an expired password', () => {
  const email = `expired-${stamp}@clinic.example`;

  it('holds the user on the password page, under its heading, until the password changes', async () => {
    await createExternalUser(portal.h, email, 'Expired-Pass1');
    const em = portal.h.orm.em.fork();
    const user = await em.findOneOrFail(UserSchema, { email });
    user.pswdResetAt = new Date(Date.now() - 200 * 24 * 3600 * 1000);
    await em.flush();
    await portal.signIn(email, 'Expired-Pass1');
    await heading(MESSAGES.passwordExpiredHeading).waitFor();
    expect(new URL(page.url()).pathname).toBe('/password');
    await page.goto('/requests');
    await heading(MESSAGES.passwordExpiredHeading).waitFor();
    await portal.shot('expired');
    await page.getByLabel('Current Password').fill('Expired-Pass1');
    await page.getByLabel('New Password', { exact: true }).fill('Renewed-Pass1');
    await page.getByLabel('Re-type New Password').fill('Renewed-Pass1');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(MESSAGES.passwordChanged).waitFor();
    await page.getByRole('link', { name: 'Go to the Dashboard' }).click();
    await heading('Dashboard').waitFor();
  });
});

describe('log out', () => {
  it('after Log Out the old token is refused by the API', async () => {
    const email = `logout-${stamp}@clinic.example`;
    await createExternalUser(portal.h, email, 'Logout-Pass1');
    page = await portal.openAs({ email });
    await heading('Dashboard').waitFor();
    const token = await page.evaluate(() => window.localStorage.getItem('feathers-jwt'));
    await portal.signOut();
    const res = await portal.h.app.inject({ method: 'GET', url: '/api/v1/requests', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
  });
});
