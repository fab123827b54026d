/**
 * The signed release date in Chromium, 768 px wide: the administrator records the signed release date in Manage Request
 * when verifying a claim history request. A date in the future is refused at the field; a valid one is saved through
 * the workflow (audit row) and shown again after a reload. Every page is scanned by axe.
 */
import { describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { addDays, DEFAULT_CLOCK_POLICY, DEFAULT_OFFICE_TIME_ZONE, formatOfficeDate, STATUS, zonedDay } from '../../domain';
import { call, credentialingDraft, loginRequester } from '../support/api-helpers';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('signed-release', { viewport: { width: 768, height: 1024 } });
const today = zonedDay(Date.now(), DEFAULT_CLOCK_POLICY.calendar.timeZone);

/** A submitted claim history request of the test's own, made through the API. */
async function submittedRequest(): Promise<number> {
  const requester = await loginRequester(portal.h);
  const id = await credentialingDraft(portal.h, requester, { lastName: 'Released' });
  const submitted = await call(portal.h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(submitted.status).toBe(200);
  return id;
}

describe('Signed Release Date in Manage Request', () => {
  it('refuses a date in the future at the field, saves a valid one with Verified, and shows it after a reload', async () => {
    const requestId = await submittedRequest();
    const page = await portal.openAs(DEV_ADMIN, `/requests/credentialing/${requestId}`);
    await page.getByRole('heading', { name: 'Manage Request' }).waitFor();
    const field = page.getByLabel('Signed Release Date');
    await field.fill(formatOfficeDate(addDays(today, 2), DEFAULT_OFFICE_TIME_ZONE));
    await page.getByLabel('Verified').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The signed release date cannot be in the future').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await portal.checkA11y('release date error');
    await portal.shot('future-date');

    const signed = addDays(today, -10);
    await field.fill(formatOfficeDate(signed, DEFAULT_OFFICE_TIME_ZONE));
    await field.press('Enter'); // keyboard: Enter submits the form
    await page.getByText('Save Successful').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Manage Request' }).waitFor();
    await expect.poll(() => page.getByLabel('Signed Release Date').inputValue()).toBe(formatOfficeDate(signed, DEFAULT_OFFICE_TIME_ZONE));
    expect(await page.getByLabel('Verified').isChecked()).toBe(true);
    await page.getByRole('tab', { name: 'Request Audit Details' }).click();
    await page.getByText(`Signed release dated ${formatOfficeDate(signed, DEFAULT_OFFICE_TIME_ZONE)} recorded`).waitFor();
    await portal.checkA11y('audit tab with the release row');
    await portal.shot('recorded');
  });
});
