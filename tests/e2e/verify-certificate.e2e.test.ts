/**
 * A holder checks a certificate, in Chromium, signed out: an approved certificate's PDF (from the approval email) is
 * rendered to PNG (pdftoppm), its QR code read from the image (zbarimg), and the URL it carries opened: Valid, with
 * what the paper states. The administrator issues it again: the first code says Superseded and links the new one,
 * which says Valid. The administrator revokes the new one on the request's page (reason category): its page says
 * Revoked with the date and the reason. The same checks by typing the code and by dropping the PDF file. Axe checks
 * every page; screenshots at 1280 and 768 px (test-results/screenshots/verify-*).
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER } from '../../db/seed-data';
import { formatVerificationCode, newVerificationCode, STATUS, VERIFICATION_CODE_RANDOM_BYTES } from '../../domain';
import { call, certificateDraft, credentialingDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import type { Harness } from '../support/portal-harness';
import { qrOf } from '../support/pdf-qr';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('verify');
let h: Harness;
let admin: Session;
let employee: Session;

const shot = async (page: Page, name: string) => {
  await portal.shot(name, page);
  await page.setViewportSize({ width: 768, height: 900 });
  // Readable at 768 px: nothing wider than the window.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
  await portal.shot(`${name}-768`, page);
  await page.setViewportSize({ width: 1280, height: 900 });
};

/** The request's issued letters, newest first, as its page lists them. */
const lettersOf = async (id: number) => (await call(h, admin, 'GET', `/api/v1/requests/${id}/certificates`)).body.items as Array<{ code: string; status: string }>;

let approved: Promise<{ id: number; number: number; pdf: Buffer }> | null = null;

/** One approved Event certificate for the file's tests, its PDF from the approval email (made once, when first asked). */
function approvedCertificate(): Promise<{ id: number; number: number; pdf: Buffer }> {
  approved ??= (async () => {
    const id = await certificateDraft(h, employee, 'Event', { certificateHolder: 'Crystal Ballroom LLC', eventName: 'Spring Gala' });
    const submitted = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const number = submitted.body.requestNumber as number;
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: true })).status).toBe(200);
    const mail = await h.sink.waitFor((m) => m.subject === `Request ${number} approved: certificate of insurance`, 120_000);
    return { id, number, pdf: Buffer.from(mail.attachments[0].content) };
  })();
  return approved;
}

beforeAll(async () => {
  h = portal.h;
  admin = await loginAdmin(h);
  employee = await loginEmployee(h);
});

/** Opens a page signed out and waits for the check's answer. */
async function openSignedOut(url: string): Promise<Page> {
  const { page } = portal;
  const response = await page.goto(url);
  // The page itself asks search engines to keep away, as its API answers do.
  expect(response?.headers()['x-robots-tag']).toMatch(/noindex/);
  await page.getByRole('heading', { level: 2, name: /^Status: / }).waitFor({ timeout: 30_000 });
  return page;
}

describe('a holder checks a certificate, signed out', () => {
  it('the QR code on the PDF opens its page: Valid, with what the paper states; issued again, Superseded with a link to the new one; revoked, Revoked with the reason', async () => {
    const request = await approvedCertificate();
    const url = await qrOf(request.pdf);
    expect(url).toMatch(new RegExp(`^${h.baseUrl}/verify/[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{5}$`));
    const firstCode = url.split('/').pop()!;

    let page = await openSignedOut(url);
    expect(await page.getByRole('heading', { level: 2 }).first().innerText()).toBe('Status: Valid');
    expect(await page.getByRole('status').first().innerText()).toContain('Valid: this Certificate of Insurance was issued by us and is in force.');
    const facts = await page.locator('.verify-facts').innerText();
    expect(facts).toContain('Crystal Ballroom LLC');
    expect(facts).toContain('Spring Gala');
    expect(facts).toContain(firstCode);
    expect(await page.locator('meta[name="robots"]').first().getAttribute('content')).toMatch(/noindex/);
    expect(await page.getByRole('button', { name: 'Log Out' }).count()).toBe(0);
    await shot(page, 'valid');

    // Issued again: the first is superseded by the new one.
    expect((await call(h, admin, 'POST', '/api/v1/generate-pdfs', { requestId: request.id })).status).toBe(200);
    const letters = await eventually(async () => { const list = await lettersOf(request.id); return list.length === 2 && list; }, 60_000);
    const secondCode = letters.find((l) => l.code !== firstCode)!.code;
    page = await openSignedOut(url);
    expect(await page.getByRole('heading', { level: 2 }).first().innerText()).toBe('Status: Superseded');
    const link = page.getByRole('link', { name: `check the status of ${secondCode}` });
    await shot(page, 'superseded');
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/verify/${secondCode}`);
    await expect.poll(() => page.getByRole('heading', { level: 2 }).first().innerText()).toBe('Status: Valid');

    // The administrator revokes the new one on the request's page.
    const adminPage = await portal.openAs(DEV_ADMIN, `/requests/certificate/${request.id}`);
    const section = adminPage.getByRole('region', { name: 'Certificates and Letters Issued' });
    await section.waitFor();
    expect(await section.innerText()).toContain(firstCode);
    await section.getByRole('button', { name: `Revoke ${secondCode}` }).click();
    const dialog = adminPage.getByRole('dialog', { name: `Revoke ${secondCode}` });
    await dialog.getByLabel('Reason').selectOption('Coverage cancelled');
    await dialog.getByLabel('Note for the requester').fill('The gala was cancelled.');
    await portal.checkA11y('revoke dialog', adminPage);
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => section.innerText(), { timeout: 60_000 }).toMatch(/Revoked \d\d\/\d\d\/\d{4} \(Coverage cancelled\)/);
    await shot(adminPage, 'request-page');

    // The requester sees the same list, without the action.
    const requesterPage = await portal.openAs(DEV_INTERNAL_REQUESTER, `/requests/certificate/${request.id}`);
    const own = requesterPage.getByRole('region', { name: 'Certificates and Letters Issued' });
    await own.waitFor();
    await expect.poll(() => own.innerText()).toMatch(new RegExp(`${secondCode}[\\s\\S]*Revoked[\\s\\S]*${firstCode}[\\s\\S]*Superseded`));
    expect(await own.getByRole('button').count()).toBe(0);

    const context = await portal.browser.newContext({ baseURL: h.baseUrl!, viewport: { width: 1280, height: 900 } });
    portal.a11y.watch(await context.newPage());
    const signedOut = context.pages()[0];
    await signedOut.goto(`/verify/${secondCode}`);
    await signedOut.getByRole('heading', { level: 2, name: /^Status: / }).waitFor({ timeout: 30_000 });
    expect(await signedOut.getByRole('heading', { level: 2 }).first().innerText()).toBe('Status: Revoked');
    expect(await signedOut.locator('.verify-result').innerText()).toMatch(/Revoked on \d\d\/\d\d\/\d{4}\. Reason: Coverage cancelled\./);
    expect(await signedOut.locator('.verify-result').innerText()).not.toContain('gala was cancelled');
    await shot(signedOut, 'revoked');
    await context.close();
  });

  it('typing the code (any case, no dashes) and dropping the PDF give the same answer; a changed file is not ours', async () => {
    const request = await approvedCertificate();
    const code = (await qrOf(request.pdf)).split('/').pop()!;
    const { page } = portal;
    await page.goto('/verify');
    await page.getByRole('heading', { name: 'Check a certificate or letter' }).waitFor();
    await page.getByLabel('Verification code').fill(code.replace(/-/g, '').toLowerCase());
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/verify\/[0-9a-z]+$/i);
    await expect.poll(() => page.getByRole('heading', { level: 2, name: /^Status: / }).innerText(), { timeout: 30_000 }).toMatch(/^Status: (Valid|Superseded)$/);

    await page.getByLabel('PDF file', { exact: true }).setInputFiles({ name: 'certificate.pdf', mimeType: 'application/pdf', buffer: request.pdf });
    await expect.poll(() => page.locator('.verify-facts').innerText(), { timeout: 30_000 }).toContain(code);
    const altered = Buffer.from(request.pdf);
    altered[Math.floor(altered.length / 2)] ^= 0x01;
    await page.getByLabel('PDF file', { exact: true }).setInputFiles({ name: 'altered.pdf', mimeType: 'application/pdf', buffer: altered });
    await expect.poll(() => page.getByRole('heading', { level: 2, name: /^Status: / }).innerText(), { timeout: 30_000 }).toBe('Status: Not issued by us');
    expect(await page.getByRole('status').first().innerText()).toContain('not byte for byte a certificate or letter we issued');
    await shot(page, 'altered-file');
  });

  it('a claim-history letter shows the clinician, the date and the status only; the page works by keyboard and announces the status', async () => {
    const requestId = await credentialingDraft(h, employee, { lastName: 'Okonkwo', firstName: 'Adaeze' });
    const code = newVerificationCode(randomBytes(VERIFICATION_CODE_RANDOM_BYTES));
    await h.orm.em.getConnection().execute(
      `insert into issued_letters (request_id, letter_kind, verification_code, sha256, idempotency_key, issued_at, revoked_at, revoke_reason, facts)
       values (?, 'claimHistoryLetter', ?, ?, ?, now() - interval '3 days', now(), 'Issued in error', ?::jsonb)`,
      [requestId, code, randomBytes(32), `verify-e2e-${code}`, JSON.stringify({
        kind: 'claimHistoryLetter', kindLabel: 'Claim History and Insurance Verification letter', clinicianName: 'Adaeze Okonkwo',
        letterDate: '2026-11-24', timeZone: 'America/Los_Angeles', claims: [{ claimNumber: 'CLM-E2E-SECRET' }],
      })], 'run');
    const { page } = portal;
    await page.goto('/verify');
    await page.getByRole('heading', { name: 'Check a certificate or letter' }).waitFor();
    // Keyboard only: the code field is the first control of the page's content.
    await page.getByLabel('Verification code').focus();
    await page.keyboard.type(formatVerificationCode(code));
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Check');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').first().innerText(), { timeout: 30_000 })
      .toMatch(/^Revoked: this Claim History and Insurance Verification letter was revoked on \d\d\/\d\d\/\d{4} \(Issued in error\)/);
    const result = await page.locator('.verify-result').innerText();
    expect(result).toContain('Adaeze Okonkwo');
    expect(result).toContain('11/24/2026');
    expect(result).not.toContain('CLM-E2E-SECRET');
    expect(await page.locator('.verify-policies').count()).toBe(0);
    await shot(page, 'claim-history-letter');
  });
});
