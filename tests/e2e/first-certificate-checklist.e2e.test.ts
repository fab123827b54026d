/**
 * "Before the first certificate" on the Admin Dashboard, as an administrator meets it in Chromium with axe at 768 px,
 * keyboard only: with no policy year on record the list says so and leads to Manage > Policies; once the policy year
 * in force today is entered there, the dashboard no longer shows the list.
 */
import { describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { PolicyYearSchema } from '../../db/entities';
import { CHECKLIST_HEADING, officeToday } from '../../domain';
import { usePortalBrowser } from '../support/portal-browser';

const PHONE = '503-494-7700';
const portal = usePortalBrowser('first-certificate', { viewport: { width: 768, height: 1024 }, env: () => ({ RISK_MANAGEMENT_PHONE: PHONE }) });

describe('the Admin Dashboard before the first certificate', () => {
  it('lists the missing policy year until it is entered under Manage > Policies, then hides the list (768 px, keyboard)', async () => {
    await portal.h.orm.em.fork().nativeDelete(PolicyYearSchema, {}); // a production database's first day
    const page = await portal.openAs(DEV_ADMIN, '/');
    const checklist = page.getByRole('region', { name: CHECKLIST_HEADING });
    await checklist.waitFor();
    const items = checklist.getByRole('listitem');
    expect(await items.count()).toBe(4);
    expect(await items.nth(0).innerText()).toContain('To do: No policy year is on record: every certificate approval is refused until it is entered.');
    expect(await items.nth(1).innerText()).toContain(`Done: ${PHONE}`);
    // Readable at 768 px: nothing runs past the window's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await portal.shot('checklist-768');
    await portal.checkA11y('Admin Dashboard with the first-certificate list at 768 px');

    const link = checklist.getByRole('link', { name: 'Enter the policy years' });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Manage Policies' }).waitFor();

    const today = officeToday(portal.h.config.clockPolicy.calendar.timeZone);
    const startYear = Number(today.slice(0, 4)) - (Number(today.slice(5, 7)) >= 7 ? 0 : 1);
    await page.getByRole('button', { name: 'Add Policy' }).focus();
    await page.keyboard.press('Enter');
    for (const [label, value] of [
      ['Start Date', `07/01/${startYear}`], ['End Date', `06/30/${startYear + 1}`], ['Policy Number', `PL-${startYear}-FIRST`],
      ['Limit Per Claim (USD)', '3,000,000'], ['Annual Aggregate (USD)', '6,000,000'],
    ]) {
      await page.getByLabel(label).focus();
      await page.keyboard.type(value);
    }
    await page.keyboard.press('Enter'); // submits the form
    await page.getByRole('table', { name: 'Policy years' }).getByText(`PL-${startYear}-FIRST`, { exact: true }).waitFor();

    await page.goto('/');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('tab', { name: /^Claim History and Insurance Verification Requests/ }).waitFor(); // the dashboard's answer is in
    expect(await checklist.count()).toBe(0);
    await portal.shot('checklist-done-768');
  });
});
