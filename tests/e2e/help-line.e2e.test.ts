/**
 * The request forms carry a help line that links to the FAQs and gives the risk-management phone
 * number the portal is configured with (spec 1 §1 "{phone} appears in help lines"; spec 1 §2 "A help line links to
 * FAQs on certificate requests"). At 768 px, by keyboard, axe-clean. Screenshots: test-results/screenshots/help-line-*.png.
 * The link opens the requesters' FAQs for everyone: an administrator filling a form of their own needs those, not the
 * administrators' set their FAQs menu shows.
 */
import { describe, expect, it } from 'vitest';
import { DEV_ADMIN, DEV_REQUESTER, SEED_FAQS } from '../../db/seed-data';
import { usePortalBrowser } from '../support/portal-browser';

const PHONE = '503-555-0142';
const questions = (type: 'Admin' | 'Requester') => SEED_FAQS.filter((f) => f.type === type).map((f) => f.question);
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
    await page.waitForURL('**/faqs?set=Requester');
    await page.getByText(questions('Requester')[0]).waitFor();
  });

  it('opens the requesters\' FAQs for an administrator too, whose FAQs menu keeps the administrators\' set', async () => {
    const page = await portal.openAs(DEV_ADMIN, '/requests/credentialing/new');
    await page.getByRole('link', { name: 'FAQs on claim history requests' }).click();
    await page.waitForURL('**/faqs?set=Requester');
    const shown = page.locator('.accordion summary');
    await page.getByText(questions('Requester')[0]).waitFor();
    expect(await shown.allInnerTexts()).toEqual(questions('Requester'));
    await portal.shot('admin-requester-faqs-768');

    // At this width the menu may sit behind its toggle.
    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQs', exact: true }).click();
    await page.getByText(questions('Admin')[0]).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(await shown.allInnerTexts()).toEqual(questions('Admin'));
  });
});
