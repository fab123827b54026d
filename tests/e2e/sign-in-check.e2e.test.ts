/**
 * The login page in Chromium when the API asks for more than a password:
 * - many sign-ins failed from the user's network (an office's shared address one of its machines sprays): the form
 *   shows the ALTCHA check, Log In waits for it, and the right password with the solved check signs in; all by
 *   keyboard, axe-clean;
 * - a `?token=` (or a crafted `#access_token=`) link opened while nobody is signed in asks "Continue as …?" before it
 *   signs anyone in (login CSRF); Cancel leaves the browser signed out.
 * Screenshots: test-results/screenshots/sign-in-check-*.png.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS, SIGN_IN_MESSAGES } from '../../domain/abuse-limits';
import { createExternalUser } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('sign-in-check');
let page: Page;
beforeEach(() => { page = portal.page; });

const sql = (text: string, params: unknown[] = []) => portal.h.orm.em.fork().getConnection().execute(text, params, 'run');
const heading = (name: string) => page.getByRole('heading', { name, exact: true });

async function newAccount(label: string) {
  const email = `${label}-${randomBytes(3).toString('hex')}@st-vincent.example`;
  await createExternalUser(portal.h, email, 'Office-Pass1');
  return { email, password: 'Office-Pass1' };
}

describe('the login page', () => {
  it("asks for the check when the office's address has used up its failed sign-ins, and signs the right password in once it is solved", async () => {
    const nurse = await newAccount('nurse');
    // The browser's address (the loopback here) as a machine of the same office left it after spraying passwords:
    // its failed-sign-in window full (tests/api/sign-in-bursts.test.ts sends the spray itself).
    const key = 'signin|address|127.0.0.1';
    await sql(`insert into rate_limit_counters (key, hits, window_ends) values (?, ?, now() + interval '15 minutes')
      on conflict (key) do update set hits = excluded.hits, window_ends = excluded.window_ends`, [key, SIGN_IN_LIMITS.address.max]);
    try {
      await page.goto('/login');
      await page.locator('input[name="email"]').fill(nurse.email);
      await page.locator('input[name="password"]').fill(nurse.password);
      await page.keyboard.press('Enter');
      await page.getByRole('alert').filter({ hasText: SIGN_IN_MESSAGES.checkRequired }).waitFor();
      const logIn = page.getByRole('button', { name: 'Log In' });
      expect(await logIn.isDisabled()).toBe(true); // nothing to send until the check is solved
      await portal.checkA11y('login asking for the check');
      await portal.shot('check-asked');

      // By keyboard: from the password field, Tab reaches the check; Space solves it.
      await page.locator('input[name="password"]').focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('checkbox');
      await page.keyboard.press('Space');
      await page.waitForFunction(() => !(document.querySelector('button[type="submit"]') as HTMLButtonElement).disabled, null, { timeout: 30_000 });
      await portal.shot('check-solved');
      await logIn.focus();
      await page.keyboard.press('Enter');
      await heading('Dashboard').waitFor();
      expect(await page.evaluate(() => localStorage.getItem('feathers-jwt'))).toBeTruthy();
    } finally {
      await sql('delete from rate_limit_counters where key = ?', [key]);
    }
  });

  it('asks "Continue as …?" before a ?token= link signs anyone in; Cancel leaves the browser signed out', async () => {
    const owner = await newAccount('linked');
    const res = await portal.h.app.inject({
      method: 'POST', url: '/api/v1/authentication', remoteAddress: '10.90.0.1',
      payload: { strategy: 'local', email: owner.email, password: owner.password },
    });
    const token = res.json().accessToken as string;

    await page.goto(`/login?token=${encodeURIComponent(token)}`);
    await heading(`Continue as Other Requester (${owner.email})?`).waitFor();
    expect(page.url()).toBe(`${portal.h.baseUrl}/login`); // the token is out of the address bar
    expect(await page.evaluate(() => localStorage.getItem('feathers-jwt'))).toBeNull(); // nobody signed in yet
    await portal.checkA11y('continue-as question');
    await portal.shot('continue-as');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'External Requesters' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('feathers-jwt'))).toBeNull();

    // The fragment form of a hand-over asks too unless single sign-on handed it to this browser (its cookie mark):
    // tests/e2e/single-sign-on.e2e.test.ts shows the real sign-in landing on the dashboard without a question.
    await page.goto('about:blank'); // a fresh load: from /login a fragment alone would not reload the page
    await page.goto(`/login#access_token=${encodeURIComponent(token)}&handoff=made-up`);
    await heading(`Continue as Other Requester (${owner.email})?`).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'External Requesters' }).waitFor();

    await page.goto(`/login?token=${encodeURIComponent(token)}`);
    const proceed = page.getByRole('button', { name: 'Continue' });
    await proceed.focus();
    await page.keyboard.press('Enter');
    await heading('Dashboard').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('feathers-jwt'))).toBe(token);
  });
});
