/**
 * The portal 768 px wide (spec 2 §9.1: the layout responds at 768 px): no page scrolls sideways, the header menu
 * folds behind a Menu button that works with the keyboard, and axe checks each page at this width too.
 * Screenshots: test-results/screenshots/narrow-*.png.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEV_ADMIN, DEV_REQUESTER } from '../../db/seed-data';
import { STATUS } from '../../domain';
import { call, credentialingDraft, loginRequester } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('narrow', { viewport: { width: 768, height: 1024 } });

/** A submitted claim history request of the test's own, made through the API. */
async function submittedRequest(): Promise<number> {
  const requester = await loginRequester(portal.h);
  const id = await credentialingDraft(portal.h, requester, { lastName: 'Narrow' });
  expect((await call(portal.h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted })).status).toBe(200);
  return id;
}

/** Wider content than the window would make the whole page scroll sideways. */
const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('768 px wide', () => {
  it('the requester dashboard fits, and the menu opens and closes from the keyboard', async () => {
    const page = await portal.openAs(DEV_REQUESTER, '/');
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.getByRole('tab', { name: /^Submitted Requests/ }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await portal.shot('requester-dashboard');

    const toggle = page.getByRole('button', { name: 'Menu' });
    expect(await page.getByRole('link', { name: 'FAQs' }).isVisible()).toBe(false); // folded away
    await toggle.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'FAQs' }).waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await portal.checkA11y('narrow menu open');
    await portal.shot('menu-open');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);

    // Log Out is in the folded menu too.
    await toggle.click();
    await portal.signOut();
  });

  it('the credentialing form fits, with its error messages too', async () => {
    const page = await portal.openAs(DEV_REQUESTER, '/');
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.getByRole('link', { name: 'New Claim History and Insurance Verification Request' }).click();
    await page.getByRole('heading', { name: 'Claim History and Insurance Verification Request' }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await portal.shot('form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Please correct the fields marked below.').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await portal.checkA11y('narrow form with errors');
  });

  it('the admin dashboard and request page fit', async () => {
    const submittedId = await submittedRequest();
    const page = await portal.openAs(DEV_ADMIN, '/');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('heading', { name: 'Pending Review' }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await portal.shot('admin-dashboard');

    await page.goto(`/requests/credentialing/${submittedId}`);
    await page.getByRole('heading', { name: 'Manage Request' }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await portal.shot('admin-view');
    await page.getByRole('tab', { name: 'Request Audit Details' }).click();
    await page.getByRole('table', { name: 'Request Audit Details' }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await portal.checkA11y('narrow audit tab');
    await portal.shot('admin-audit');
  });
});
