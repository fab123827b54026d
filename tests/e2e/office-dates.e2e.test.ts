/**
 * The office's days as an administrator meets them: a browser far from Portland (Tokyo, where 23:30 in Portland is
 * already the afternoon of the next day, as it is in UTC) shows the office's day and clock: Search Submission History
 * finds a request submitted at 23:30 by that day and lists it with that day; its audit tab shows 11:30 PM that day.
 * At 768 px, by keyboard, axe-clean. Screenshots: test-results/screenshots/office-dates-*.png.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { RequestActivitySchema, RequestSchema } from '../../db/entities';
import { credentialingDraft, loginRequester } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('office-dates', { viewport: { width: 768, height: 1024 }, timezoneId: 'Asia/Tokyo' });
/** 23:30 on Wednesday January 14, 2026 in Portland; 16:30 on January 15 in Tokyo; 07:30 on January 15 in UTC. */
const LATE_EVENING = new Date('2026-01-15T07:30:00.000Z');
const NAME = `Latenight${process.pid}`;
let id: number;

// One request submitted late in the evening, made once for the file: the tests only read it.
beforeAll(async () => {
  id = await credentialingDraft(portal.h, await loginRequester(portal.h), { lastName: NAME });
  const em = portal.h.orm.em.fork();
  await em.nativeUpdate(RequestSchema, { id }, { status: 'Submitted', requestNumber: 880_000 + id, submitDate: LATE_EVENING });
  em.create(RequestActivitySchema, {
    requestId: id, date: LATE_EVENING, activityType: 'Status Change', activityText: 'Submitted', performedBy: 'Casey Requester', channel: 'Portal',
  });
  await em.flush();
});

describe('dates in the office\'s time zone, whatever the browser\'s', () => {
  it('the browser really is in Tokyo', async () => {
    const page = portal.page;
    await page.goto('/login');
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Asia/Tokyo');
  });

  it('finds the request by its office day and shows that day', async () => {
    const page = await portal.openAs(DEV_ADMIN, '/search');
    await page.getByLabel('Submitted From').fill('01/14/2026');
    await page.getByLabel('Submitted To').fill('01/14/2026');
    await page.getByLabel('Clinician Last Name').fill(NAME);
    await page.getByLabel('Clinician Last Name').press('Enter'); // the keyboard submits the form
    const results = page.getByRole('table', { name: /Results/ });
    await results.waitFor();
    await portal.shot('search-768');
    const row = results.locator('tbody tr').filter({ hasText: String(880_000 + id) }); // the results name no clinician
    expect(await row.count()).toBe(1);
    expect(await row.innerText()).toContain('01/14/2026');
    expect(await row.innerText()).not.toContain('01/15/2026');
  });

  it('shows the audit row on the office\'s clock', async () => {
    const page = await portal.openAs(DEV_ADMIN, `/requests/credentialing/${id}`);
    await page.getByRole('tab', { name: 'Request Audit Details' }).click();
    const audit = page.getByRole('table', { name: 'Request Audit Details' });
    await audit.waitFor();
    expect(await audit.locator('tbody tr').filter({ hasText: 'Submitted' }).first().innerText()).toContain('01/14/2026 11:30 PM');
    await portal.shot('audit-768');
  });
});
