/**
 * Issue #16 item 8 in Chromium: an administrator opens Security Log from the Manage menu with the keyboard, sees
 * their own sign-in and an admin-list change, filters by kind and by a day with nothing ("No entries."), pages,
 * and reads the page at 1280 and 768 px. Every state is scanned by axe; screenshots in test-results/screenshots.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { call, loginAdmin } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('security-log');
let page: Page;
beforeAll(() => { page = portal.page; });

const stamp = Date.now();

describe('Security Log', () => {
  it('opens from the Manage menu with the keyboard and lists the latest events', async () => {
    const admin = await loginAdmin(portal.h);
    await call(portal.h, admin, 'POST', '/api/v1/admins', { firstName: 'Sec', lastName: 'Logged', email: `sec-logged-${stamp}@example.org` });
    await portal.signIn(DEV_ADMIN.email, DEV_ADMIN.password);
    await page.getByRole('heading', { name: 'Admin Dashboard', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Manage' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Security Log' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Security Log', exact: true }).waitFor();
    expect(page.url()).toMatch(/\/manage\/security-log$/);
    await page.getByRole('cell', { name: `sec-logged-${stamp}@example.org`, exact: false }).first().waitFor();
    for (const header of ['Date and time', 'Kind', 'User', 'Address', 'Details']) await page.getByRole('columnheader', { name: header }).waitFor();
    await portal.checkA11y('security log 1280');
    await portal.shot('list');
  });

  it('filters by kind and by day, and says "No entries." when nothing matches', async () => {
    await page.getByLabel('Kind').selectOption({ label: 'Administrator added' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('cell', { name: 'Sign-in succeeded' }).first().waitFor({ state: 'detached' });
    expect(await page.getByRole('cell', { name: 'Administrator added' }).count()).toBeGreaterThan(0);
    await page.getByLabel('From').fill('01/01/2001');
    await page.getByLabel('To').fill('01/31/2001');
    await page.getByLabel('To').press('Enter');
    await page.getByText('No entries.').waitFor();
    await portal.checkA11y('security log empty');
    await page.getByLabel('From').fill('13/45/2001');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Date input not valid.').waitFor();
  });

  it('pages through more than 50 entries and reads at 768 px', async () => {
    const em = portal.h.orm.em.fork();
    await em.getConnection().execute(
      `insert into "security_events" ("kind", "email", "ip", "detail") select 'passwordResetRequested', 'pager-' || g || '@clinic.example', '10.0.0.1', '{}' from generate_series(1, 60) g`);
    await page.getByLabel('Kind').selectOption({ label: 'Password reset requested' });
    await page.getByLabel('From').fill('');
    await page.getByLabel('To').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(/Showing 1–50 of \d+/).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(/Showing 51–\d+ of \d+/).waitFor();
    await page.setViewportSize({ width: 768, height: 1024 });
    await portal.checkA11y('security log 768');
    await portal.shot('narrow');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
