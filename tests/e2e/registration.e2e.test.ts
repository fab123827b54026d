/**
 * Registration in Chromium: a new hospital user registers (the ALTCHA widget solves its proof of work; Register stays
 * disabled until then), signs in, changes the password; a second registration with the same email (any case)
 * hears the duplicate message with the reset-password link. Every page is scanned by axe.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../domain';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('registration');
let page: Page;
beforeEach(() => { page = portal.page; });

const heading = (name: string) => page.getByRole('heading', { name, exact: true });
const stamp = Date.now();
let seq = 0;
/** An address of the test's own: `new-hospital-<label>-<stamp>@providence.example`. */
const newEmail = (label: string) => `new-hospital-${label}-${stamp}-${seq++}@providence.example`;

/**
 * Registers `email` as the form would (`POST /api/v1/users` with a solved captcha, the form's values): the account
 * exists, unconfirmed, and the confirmation email is on its way.
 */
async function registerByApi(email: string): Promise<void> {
  const remoteAddress = `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const challenge = (await portal.h.app.inject({ method: 'GET', url: '/api/v1/captcha-challenge', remoteAddress })).json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  const res = await portal.h.app.inject({
    method: 'POST', url: '/api/v1/users', remoteAddress,
    payload: {
      lastName: 'Okafor', firstName: 'Ada', middleInitial: 'B.', company: 'Providence Hospital', phone: '503-555-0199', email,
      password: 'Hospital-Pass1', altcha: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function fillForm(address: string) {
  await page.getByLabel('Last Name').fill('Okafor');
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Middle Initial').fill('B.');
  await page.getByLabel('Company').fill('Providence Hospital');
  await page.getByLabel('Phone').fill('5035550199');
  expect(await page.getByLabel('Phone').inputValue()).toBe('503-555-0199');
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password', { exact: true }).fill('Hospital-Pass1');
  await page.getByLabel('Re-type Password').fill('Hospital-Pass1');
}

async function solveCaptcha() {
  const register = page.getByRole('button', { name: 'Register' });
  expect(await register.isDisabled()).toBe(true);
  await page.getByText("I'm not a robot").click();
  await page.waitForFunction(() => !(document.querySelector('button[type="submit"]') as HTMLButtonElement).disabled, null, { timeout: 30_000 });
}

describe('registration', () => {
  it('registers a new external requester after the captcha is solved', async () => {
    const email = newEmail('form');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create New Login' }).click();
    await heading('Registration').waitFor();
    expect(await page.title()).toBe('Create New Login');
    await fillForm(email);
    await solveCaptcha();
    await portal.shot('form-solved');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(MESSAGES.registered).waitFor();
    await page.getByText(`We sent a confirmation link to ${email}.`).waitFor();
    await portal.shot('registered');
  });

  it('until the emailed link is used, the dashboard asks to confirm the address; the link confirms it', async () => {
    const email = newEmail('confirm');
    await registerByApi(email);
    page = await portal.openAs({ email });
    await heading('Dashboard').waitFor();
    const banner = page.getByRole('region', { name: 'Confirm your email address' });
    await banner.getByText(`We sent a link to ${email}.`).waitFor();
    await banner.getByRole('button', { name: 'Send the link again' }).focus();
    await page.keyboard.press('Enter'); // keyboard-usable
    await banner.getByRole('status').filter({ hasText: `A new link is on its way to ${email}.` }).waitFor();
    await portal.checkA11y('confirmation banner');
    await portal.shot('banner');
    await page.setViewportSize({ width: 768, height: 1024 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await portal.shot('banner-768');
    await page.setViewportSize({ width: 1280, height: 900 });

    const mail = await portal.h.sink.waitFor((m) => m.envelope.to.includes(email) && m.subject === 'Confirm your email address', 60_000);
    const link = /https?:\/\/\S+\/login\/confirm-email\/\S+/.exec(mail.text)![0];
    await page.goto(new URL(link).pathname);
    await heading('Confirm Email Address').waitFor();
    // The page names the account the address goes to, and what confirming does, before the button.
    await page.getByText(`An account asks to use ${email} as its email address:`).waitFor();
    const main = page.locator('#main-content');
    await main.getByText('Ada Okafor').waitFor();
    await main.getByText('Providence Hospital').waitFor();
    await page.getByText(/It never gives administrator rights\./).waitFor();
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await page.getByText(MESSAGES.emailConfirmed).waitFor();
    await portal.shot('confirmed');
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await heading('Dashboard').waitFor();
    expect(await page.getByRole('region', { name: 'Confirm your email address' }).count()).toBe(0);
    await portal.signOut();
  });

  it('the new user signs in and changes the password', async () => {
    const email = newEmail('change');
    await registerByApi(email);
    page = await portal.openAs({ email });
    await heading('Dashboard').waitFor();
    await page.getByRole('link', { name: 'New Password' }).first().click();
    await page.getByLabel('Current Password').fill('Hospital-Pass1');
    await page.getByLabel('New Password', { exact: true }).fill('Hospital-Pass2');
    await page.getByLabel('Re-type New Password').fill('Hospital-Pass2');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(MESSAGES.passwordChanged).waitFor();
    await portal.signOut();
    await portal.signIn(email, 'Hospital-Pass2');
    await heading('Dashboard').waitFor();

    // Edit Profile: the same form, without password and captcha.
    await page.getByRole('link', { name: 'Edit Profile' }).first().click();
    await heading('Edit Profile').waitFor();
    await page.getByLabel('Company').waitFor();
    expect(await page.getByLabel('Company').inputValue()).toBe('Providence Hospital');
    expect(await page.getByLabel('Middle Initial').inputValue()).toBe('B');
    await page.getByLabel('Company').fill('Providence St. Vincent');
    await page.getByLabel('Phone').fill('503');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText(MESSAGES.phoneFormat).waitFor();
    await page.getByLabel('Phone').fill('5035550100');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText(MESSAGES.profileUpdated).waitFor();
    await portal.shot('profile-updated');

    // A new email asks for the current password: missing or wrong, a clear error and nothing changed.
    const moved = newEmail('moved');
    await page.getByRole('link', { name: 'Go to the Dashboard' }).click();
    await heading('Dashboard').waitFor();
    await page.getByRole('link', { name: 'Edit Profile' }).first().click();
    await heading('Edit Profile').waitFor();
    await page.getByLabel('Email').waitFor();
    expect(await page.getByLabel('Current Password').count()).toBe(0);
    await page.getByLabel('Email').fill(moved);
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText(MESSAGES.currentPasswordForEmail).waitFor();
    await page.getByLabel('Current Password').fill('Not-My-Pass1');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText(MESSAGES.currentPasswordFailed).waitFor();
    await page.getByLabel('Current Password').fill('Hospital-Pass2');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText(`We sent a confirmation link to ${moved}. Until it is used, ${email} stays the email address of this account.`).waitFor();
    await portal.signOut();
  });

  it('a second registration with the same email hears the duplicate message with a reset-password link', async () => {
    const email = newEmail('twice');
    await registerByApi(email);
    await page.goto('/login/register');
    await fillForm(email.toUpperCase());
    await solveCaptcha();
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(MESSAGES.emailInUse).waitFor();
    expect(await page.getByRole('link', { name: 'reset your password' }).isVisible()).toBe(true);
    await portal.shot('duplicate');
    await page.getByRole('button', { name: 'Back to Form' }).click();
    expect(await page.getByLabel('Company').inputValue()).toBe('Providence Hospital');
  });
});
