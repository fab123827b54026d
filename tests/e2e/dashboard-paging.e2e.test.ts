/**
 * The dashboards show one page of 15 rows per table, with counts from the server and a pager that works
 * from the keyboard. A requester of their own (so the counts are known) with 31 drafts: Next shows rows 16–30 in the
 * server's order, the focus stays on the pager, axe stays clean, and at 768 px nothing scrolls sideways. Deleting a
 * draft refreshes the page and the count. The administrator's Filter By Request Type goes to the server.
 * Screenshots: test-results/screenshots/dashboard-paging-*.png.
 */
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { MESSAGES, STATUS } from '../../domain';
import { call, createExternalUser, login, type Session } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('dashboard-paging', { viewport: { width: 768, height: 1024 } });
const PASSWORD = 'Paging-Pass1';
const DRAFTS = 31;
let page: Page;
beforeEach(() => { page = portal.page; });

/** A requester of their own (so the counts are known) with `DRAFTS` drafts Pager1…Pager31, Pager31 updated last. */
async function requesterWithDrafts(label: string): Promise<{ email: string; session: Session }> {
  const email = `paging-${label}-${process.pid}@clinic.example`;
  await createExternalUser(portal.h, email, PASSWORD);
  const session = await login(portal.h, email, PASSWORD);
  for (let n = 1; n <= DRAFTS; n += 1) {
    const created = await call(portal.h, session, 'POST', '/api/v1/requests', {
      requestType: 'credentialing', lastName: `Pager${n}`, firstName: 'Avery', providerType: 'Current Employee/Fellow/Resident',
    });
    expect(created.status).toBe(201);
  }
  return { email, session };
}

/** Read only: no test deletes or changes its drafts (the delete test makes a requester of its own). */
let reader: { email: string; session: Session };
beforeAll(async () => { reader = await requesterWithDrafts('reader'); });

const draftsTable = () => page.getByRole('table', { name: 'Draft Requests' });
/** The clinician names of the table's rows, top to bottom ("Pager31, Avery" → "Pager31"). */
const shownNames = async () => (await draftsTable().locator('tbody tr').allInnerTexts()).map((text) => /Pager\d+/.exec(text)?.[0]);
/** The same page as the server orders it. */
async function serverNames(requester: Session, skip: number): Promise<string[]> {
  const res = await call(portal.h, requester, 'GET', `/api/v1/requests?status=${STATUS.draft}&$sort[updatedAt]=-1&$limit=15&$skip=${skip}`);
  expect(res.status).toBe(200);
  return (res.body.data as Array<{ lastName: string }>).map((r) => r.lastName);
}
const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
const horizontalOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('dashboard paging', () => {
  it('pages the drafts from the keyboard: Next shows rows 16–30, Previous goes back', async () => {
    page = await portal.openAs(reader);
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.getByRole('tab', { name: `Draft Requests (${DRAFTS})` }).waitFor();
    expect(await page.getByRole('tab', { name: 'Submitted Requests (0)' }).isVisible()).toBe(true);

    // Keyboard only: the selected tab, ArrowRight to Drafts, then Tab through the rows to Next.
    await page.getByRole('tab', { selected: true }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByText(`Showing 1–15 of ${DRAFTS}`).waitFor();
    expect(await shownNames()).toEqual(await serverNames(reader.session, 0));
    expect((await shownNames())[0]).toBe(`Pager${DRAFTS}`); // newest update first
    for (let presses = 0; (await focusedText()) !== 'Next'; presses += 1) {
      expect(presses, 'Tab presses to reach Next').toBeLessThan(100);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByText(`Showing 16–30 of ${DRAFTS}`).waitFor();
    expect(await shownNames()).toEqual(await serverNames(reader.session, 15));
    expect(await focusedText()).toBe('Next'); // the keyboard user keeps their place
    expect(await horizontalOverflow()).toBeLessThanOrEqual(0);
    await portal.checkA11y('drafts, second page');
    await portal.shot('requester-drafts-page-2');

    await page.keyboard.press('Enter');
    await page.getByText(`Showing 31–31 of ${DRAFTS}`).waitFor();
    expect(await shownNames()).toEqual(['Pager1']);
    const next = page.getByRole('button', { name: 'Next' });
    expect(await next.getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Enter'); // at the end Next does nothing
    await page.keyboard.press('Shift+Tab');
    expect(await focusedText()).toBe('Previous');
    await page.keyboard.press('Enter');
    await page.getByText(`Showing 16–30 of ${DRAFTS}`).waitFor();
  });

  it('deleting a draft refreshes the page and the count', async () => {
    const own = await requesterWithDrafts('deleter');
    page = await portal.openAs(own);
    await page.getByRole('tab', { name: `Draft Requests (${DRAFTS})` }).click();
    await page.getByText(`Showing 1–15 of ${DRAFTS}`).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`Showing 16–30 of ${DRAFTS}`).waitFor();
    expect(await shownNames()).toEqual(await serverNames(own.session, 15));
    const firstRow = draftsTable().locator('tbody tr').first();
    const name = /Pager\d+/.exec(await firstRow.innerText())![0];
    await firstRow.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: MESSAGES.deleteConfirmYes }).click();
    await page.getByRole('tab', { name: `Draft Requests (${DRAFTS - 1})` }).waitFor();
    await page.getByText(`Showing 16–30 of ${DRAFTS - 1}`).waitFor();
    await expect.poll(async () => (await shownNames()).includes(name)).toBe(false);
    expect(await shownNames()).toEqual(await serverNames(own.session, 15));
    await page.getByRole('button', { name: 'Menu' }).click(); // 768 px: Log Out is in the folded menu
    await portal.signOut();
  });

  it("the administrator's request type filter goes to the server, and the tab counts follow it", async () => {
    page = await portal.openAs(DEV_ADMIN);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('tab', { name: /^Draft Requests \(\d+\)$/ }).waitFor();
    await portal.shot('admin-dashboard');

    const label = 'Claim History and Insurance Verification';
    const asked = page.waitForRequest((r) => r.url().includes('/api/v1/admin-dashboard') && new URL(r.url()).searchParams.get('requestTypeLabel') === label);
    await page.getByLabel('Filter By Request Type').selectOption(label);
    await asked;
    const admin = await login(portal.h, DEV_ADMIN.email, DEV_ADMIN.password);
    const dashboard = await call(portal.h, admin, 'GET', `/api/v1/admin-dashboard?requestTypeLabel=${encodeURIComponent(label)}`);
    expect(dashboard.status).toBe(200);
    const drafts = (dashboard.body.queueCounts as Array<{ status: string; count: number }>)
      .filter((row) => row.status === STATUS.draft).reduce((sum, row) => sum + row.count, 0);
    expect(drafts).toBeGreaterThanOrEqual(DRAFTS); // the reader's drafts are claim history requests
    await page.getByRole('tab', { name: 'Certificate Requests (0)' }).waitFor();
    await page.getByRole('tab', { name: `Draft Requests (${drafts})` }).click();
    await page.getByText(new RegExp(`^Showing 1–15 of ${drafts.toLocaleString('en-US')}$`)).waitFor();
    await portal.checkA11y('admin drafts, filtered');
    await portal.shot('admin-drafts-filtered');
  });
});
