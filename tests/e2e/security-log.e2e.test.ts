/**
 * The security log in Chromium: an administrator opens Security Log from the Manage menu with the keyboard, sees
 * their own sign-in and an admin-list change, filters by kind and by a day with nothing ("No entries."), pages,
 * and reads the page at 1280 and 768 px. Every state is scanned by axe; screenshots in test-results/screenshots.
 */
import { describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { call, login } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('security-log');

const stamp = Date.now();
let added = 0;
/**
 * The events a test looks for, its own: a sign-in (through the API, as the login form does) and an administrator
 * added with a unique address. Returns that address.
 */
async function signInAndAddAdmin(): Promise<string> {
  const admin = await login(portal.h, DEV_ADMIN.email, DEV_ADMIN.password); // a real sign-in: the log lists it
  added += 1;
  const email = `sec-logged-${stamp}-${added}@example.org`;
  expect((await call(portal.h, admin, 'POST', '/api/v1/admins', { firstName: 'Sec', lastName: 'Logged', email })).status).toBe(201);
  return email;
}

describe('Security Log', () => {
  it('opens from the Manage menu with the keyboard and lists the latest events', async () => {
    const email = await signInAndAddAdmin();
    const page = await portal.openAs(DEV_ADMIN, '/');
    await page.getByRole('heading', { name: 'Admin Dashboard', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Manage' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Security Log' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Security Log', exact: true }).waitFor();
    expect(page.url()).toMatch(/\/manage\/security-log$/);
    await page.getByRole('cell', { name: email, exact: false }).first().waitFor();
    for (const header of ['Date and time', 'Kind', 'User', 'Address', 'Details']) await page.getByRole('columnheader', { name: header }).waitFor();
    await portal.checkA11y('security log 1280');
    await portal.shot('list');
  });

  it('filters by kind and by day, and says "No entries." when nothing matches', async () => {
    const email = await signInAndAddAdmin();
    const page = await portal.openAs(DEV_ADMIN, '/manage/security-log');
    await page.getByRole('cell', { name: email, exact: false }).first().waitFor();
    await page.getByRole('cell', { name: 'Sign-in succeeded' }).first().waitFor(); // listed before the filter, gone after it
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
    const page = await portal.openAs(DEV_ADMIN, '/manage/security-log');
    await page.getByRole('heading', { name: 'Security Log', exact: true }).waitFor();
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
