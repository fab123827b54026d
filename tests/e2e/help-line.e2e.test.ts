/**
 * Issue #22 item 5: the request forms carry a help line that links to the FAQs and gives the risk-management phone
 * number the portal is configured with (spec 1 §1 "{phone} appears in help lines"; spec 1 §2 "A help line links to
 * FAQs on certificate requests"). At 768 px, by keyboard, axe-clean. Screenshots: test-results/screenshots/help-line-*.png.
 */
import { describe, expect, it } from 'vitest';
import { DEV_REQUESTER } from '../../db/seed-data';
import { usePortalBrowser } from '../support/portal-browser';

const PHONE = '503-555-0142';
const portal = usePortalBrowser('help-line', { viewport: { width: 768, height: 1024 }, env: () => ({ RISK_MANAGEMENT_PHONE: PHONE }) });

describe('the help line', () => {
  it('links each request form to the FAQs and names the configured phone number', async () => {
    // Signed in without the login form (what is checked is the forms' help line), on the first form already.
    const page = await portal.openAs(DEV_REQUESTER, '/requests/certificate/new');
    for (const [url, topic] of [['/requests/certificate/new', 'FAQs on certificate requests'], ['/requests/credentialing/new', 'FAQs on claim history requests']]) {
      if (new URL(page.url()).pathname !== url) await page.goto(url);
      const line = page.locator('.help-line');
      await line.waitFor();
      expect(await line.innerText()).toBe(`Questions? See the ${topic} or call Risk Management at ${PHONE}.`);
      expect(await line.getByRole('link', { name: PHONE }).getAttribute('href')).toBe('tel:5035550142');
    }
    await portal.shot('claim-history-form-768');
    const faqs = page.getByRole('link', { name: 'FAQs on claim history requests' });
    await faqs.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/faqs');
  });
});
