/**
 * Issue #8 in Chromium: a new hospital user registers (the ALTCHA widget solves its proof of work; Register stays
 * disabled until then), signs in, changes the password; a second registration with the same email (any case)
 * hears the duplicate message with the reset-password link. Every page is scanned by axe.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../domain';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('registration');
let page: Page;
beforeAll(() => { page = portal.page; });

const heading = (name: string) => page.getByRole('heading', { name, exact: true });
const email = `new-hospital-${Date.now()}@providence.example`;

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
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create New Login' }).click();
    await heading('Registration').waitFor();
    expect(await page.title()).toBe('Create New Login');
    await fillForm(email);
    await solveCaptcha();
    await portal.shot('form-solved');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(MESSAGES.registered).waitFor();
    await portal.shot('registered');
  });

  it('the new user signs in and changes the password', async () => {
    await portal.signIn(email, 'Hospital-Pass1');
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
    await portal.signOut();
  });

  it('a second registration with the same email hears the duplicate message with a reset-password link', async () => {
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
