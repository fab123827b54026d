/**
 * No certificate without coverage, as an administrator meets it in Chromium with axe, at 1280 and
 * 768 px: approving an Event certificate whose dates no policy year covers is refused with a message naming the dates;
 * nothing changes; one press on "Set to Pending New Policy Year" parks the request instead. Keyboard only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { STATUS, uncoveredCertificateMessage } from '../../domain';
import { call, certificateDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import type { Harness } from '../support/portal-harness';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('no-coverage');
let h: Harness;
let admin: Session;

const day = (d: string) => `${d}T19:00:00.000Z`;
async function uncoveredEvent(): Promise<number> {
  const employee = await loginEmployee(h);
  const id = await certificateDraft(h, employee, 'Event', { eventStartDate: day('2091-04-18'), eventEndDate: day('2091-04-19') });
  const res = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return id;
}
const stored = async (id: number) => (await call(h, admin, 'GET', `/api/v1/requests/${id}`)).body;

beforeAll(async () => {
  h = portal.h;
  admin = await loginAdmin(h);
});

describe('approving a certificate no policy year covers', () => {
  for (const width of [1280, 768]) {
    it(`is refused naming its dates, and offers Pending New Policy Year in one press (${width} px)`, async () => {
      const id = await uncoveredEvent();
      // The administrator signed in without the login form, in a window of this width from its first page on.
      const page = await (await portal.contextAs(DEV_ADMIN, { viewport: { width, height: 1000 } })).newPage();
      await page.goto(`/requests/certificate/${id}`);
      try {
        await page.getByText('Status: Submitted').first().waitFor();
      } catch (error) {
        await portal.shot(`not-loaded-${width}`, page);
        throw error;
      }

      const status = page.getByLabel('Status', { exact: true });
      await status.focus();
      await status.selectOption(STATUS.approved);
      await page.keyboard.press('Tab'); // Verified
      await page.keyboard.press('Space');
      await page.getByRole('button', { name: 'Save', exact: true }).focus();
      await page.keyboard.press('Enter');

      const alert = page.getByRole('alert').filter({ hasText: 'No policy year on record covers' });
      await alert.waitFor();
      expect(await alert.innerText()).toBe(uncoveredCertificateMessage('2091-04-18', '2091-04-19'));
      expect(await alert.innerText()).toContain('04/18/2091 – 04/19/2091');
      expect((await stored(id)).status).toBe(STATUS.submitted); // nothing was written
      await portal.shot(`refused-${width}`, page);
      await portal.checkA11y(`certificate without coverage refused at ${width} px`, page);

      const offer = page.getByRole('button', { name: `Set to ${STATUS.pendingNewPolicyYear}` });
      await offer.focus();
      await page.keyboard.press('Enter');
      await page.getByText(`Status: ${STATUS.pendingNewPolicyYear}`).first().waitFor({ timeout: 30_000 });
      expect((await stored(id)).status).toBe(STATUS.pendingNewPolicyYear);
      expect(await offer.count()).toBe(0);
      await portal.shot(`parked-${width}`, page);
      await portal.checkA11y(`certificate parked for a new policy year at ${width} px`, page);
    });
  }
});
