/**
 * The account screens at 768 px (spec 2 §9.1): login, registration, forgot and reset password, change
 * password, Manage Administrative Users and Manage External Users. None scrolls sideways, each passes axe, and each is
 * photographed (test-results/screenshots/accounts768-*.png) to be looked at.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { MESSAGES } from '../../domain';
import { call, createExternalUser } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('accounts768', { viewport: { width: 768, height: 1024 } });
let page: Page;
beforeEach(() => { page = portal.page; });

const stamp = Date.now();
const heading = (name: string) => page.getByRole('heading', { name, exact: true });
const horizontalOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function fits(name: string) {
  expect(await horizontalOverflow(), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  await portal.shot(name);
}

describe('account screens at 768 px', () => {
  it('login, registration and forgot password fit', async () => {
    await page.goto('/login');
    await heading('Login').waitFor();
    await fits('login');
    await page.goto('/login/register');
    await heading('Registration').waitFor();
    await fits('registration');
    await page.goto('/login/forgot-password');
    await heading('Forgot Password?').waitFor();
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText(MESSAGES.required).waitFor();
    await fits('forgot-password');
  });

  it('the reset page from an emailed link fits', async () => {
    const email = `narrow-reset-${stamp}@clinic.example`;
    await createExternalUser(portal.h, email, 'Narrow-Pass1');
    expect((await call(portal.h, null, 'POST', '/api/v1/password-reset', { email })).status).toBeLessThan(300);
    const mail = await portal.h.sink.waitFor((m) => m.to.includes(email), 30_000);
    const link = /https?:\/\/\S+\/login\/password-reset\/\S+/.exec(mail.text)![0];
    await page.goto(new URL(link).pathname);
    await heading('Reset Password').waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('weak');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText(MESSAGES.passwordRequirements).waitFor();
    await fits('reset-password');
  });

  it('change password fits', async () => {
    const email = `narrow-change-${stamp}@clinic.example`;
    await createExternalUser(portal.h, email, 'Narrow-Pass1');
    page = await portal.openAs({ email }, '/password');
    await heading('Change Password').waitFor();
    await page.getByLabel('Current Password').fill('Wrong-Pass9');
    await page.getByLabel('New Password', { exact: true }).fill('Better-Pass2');
    await page.getByLabel('Re-type New Password').fill('Better-Pass3');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(MESSAGES.passwordsDontMatch).waitFor();
    await fits('change-password');
  });

  it('the administrators\' manage screens fit', async () => {
    const external = `narrow-external-${stamp}@a-rather-long-hospital-domain.example`;
    await createExternalUser(portal.h, external, 'Narrow-Pass1');
    page = await portal.openAs(DEV_ADMIN, '/manage/admins');
    await heading('Manage Administrative Users').waitFor();
    await page.getByRole('cell', { name: DEV_ADMIN.email }).waitFor();
    await fits('manage-admins');
    await page.goto('/manage/registrants');
    await heading('Manage External Users').waitFor();
    await page.getByLabel('Email').fill(`narrow-external-${stamp}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('cell', { name: external }).waitFor();
    await fits('manage-external-users');
  });
});
