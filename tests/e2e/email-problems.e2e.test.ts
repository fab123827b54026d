/**
 * Emails not sent, in Chromium: an email the mail server refused shows on the administrators' dashboard as a count
 * with a link; Emails Not Sent lists it with its request, recipient and reason; selecting it and pressing Send again
 * queues it, the mail arrives, and the row leaves the list. Keyboard, axe at 1280 and 768 px, screenshots.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { refuseInvalidDomains } from '../../devtools/smtp-sink';
import { call, credentialingDraft, loginAdmin, loginRequester } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { usePortalBrowser } from '../support/portal-browser';
import { DEV_REQUESTER_EMAIL } from '../workflows/fixtures-constants';

const portal = usePortalBrowser('email-problems');

/**
 * A request of the test's own whose submission confirmation the mail server refused (550 for the requester's
 * address, only while it is made), once it is listed among the emails not sent. Returns its request number.
 */
async function refusedConfirmation(): Promise<number> {
  const h = portal.h;
  h.sink.setRecipientRule((address) => (address === DEV_REQUESTER_EMAIL ? '550 5.1.1 mailbox unavailable' : null));
  try {
    const requester = await loginRequester(h);
    const admin = await loginAdmin(h);
    const id = await credentialingDraft(h, requester);
    const number = (await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' })).body.requestNumber as number;
    await eventually(async () => {
      const listed = (await call(h, admin, 'GET', '/api/v1/email-problems?$limit=200')).body.data as { requestNumber: number }[];
      return listed.some((p) => p.requestNumber === number) || undefined;
    }, 20_000);
    return number;
  } finally {
    h.sink.setRecipientRule(refuseInvalidDomains);
  }
}

const rowOf = (page: Page, number: number) => page.getByRole('row').filter({ has: page.getByRole('link', { name: String(number), exact: true }) });

describe('Emails Not Sent', () => {
  it('the dashboard counts a refused email and links to the list, which says why', async () => {
    const number = await refusedConfirmation();
    const page = await portal.openAs(DEV_ADMIN, '/');
    await page.getByRole('heading', { name: 'Admin Dashboard', exact: true }).waitFor();
    await page.getByText(/\d+ emails? or letters? not sent\./).waitFor();
    await page.getByRole('link', { name: 'Review emails not sent' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Emails Not Sent', exact: true }).waitFor();
    const row = rowOf(page, number);
    await row.waitFor();
    for (const text of ['Submission Confirmation', DEV_REQUESTER_EMAIL, 'Failed']) await row.getByRole('cell', { name: text, exact: true }).waitFor();
    expect(await row.getByRole('cell', { name: /550/ }).count()).toBe(1);
    await portal.checkA11y('emails not sent 1280');
    await portal.shot('list');
  });

  it('Send again on the selected email queues it; it arrives and leaves the list', async () => {
    const number = await refusedConfirmation();
    const page = await portal.openAs(DEV_ADMIN, '/manage/email-problems');
    await page.getByRole('heading', { name: 'Emails Not Sent', exact: true }).waitFor();
    const row = rowOf(page, number);
    await row.waitFor();
    await row.getByRole('checkbox').focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: /Send again \(1 selected\)/ }).click();
    await page.getByText('Queued 1 email to be sent again.').waitFor();
    await portal.h.sink.waitFor((m) => m.subject.includes(String(number)) && m.subject.includes('received'), 60_000);
    await row.waitFor({ state: 'detached', timeout: 60_000 });
    await page.setViewportSize({ width: 768, height: 1024 });
    await portal.checkA11y('emails not sent 768');
    await portal.shot('narrow');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
