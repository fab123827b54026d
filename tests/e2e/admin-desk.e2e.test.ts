/**
 * In Chromium: every Manage screen of the administrators' desk and Search, as an administrator uses them; a 100,000-row
 * CS-STARS CSV uploads with progress; an export is read back with exceljs; a credentialing letter lists two linked
 * claims. Screenshots (1280 and 768 px wide) go to test-results/screenshots/desk-* (git-ignored); axe checks every
 * page and the dialogs (tests/support/portal-browser.ts).
 */
import ExcelJS from 'exceljs';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claimLines, CSV_HEADER } from '../../bench/generate-cs-stars';
import { DEV_ADMIN } from '../../db/seed-data';
import { DocumentSchema, RequestEffectSchema, RequestSchema } from '../../db/entities';
import { DESK_MESSAGES } from '../../domain';
import { call, credentialingDraft, loginAdmin, loginRequester, uploadClaimsCsv, type Session } from '../support/api-helpers';
import type { Harness } from '../support/portal-harness';
import { screenshotPath, screenshotsWanted, usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('desk');
let h: Harness;
let page: Page;
let admin: Session;
let requester: Session;

/** A full-page screenshot; `narrow` adds one 768 px wide (the table breakpoint). With SCREENSHOTS=1 only. */
const shot = async (name: string, narrow = false) => {
  if (narrow && screenshotsWanted()) {
    await page.setViewportSize({ width: 768, height: 900 });
    await portal.shot(`${name}-768`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await portal.shot(name);
};

beforeAll(async () => {
  h = portal.h;
  admin = await loginAdmin(h);
  requester = await loginRequester(h);
});
beforeEach(() => { page = portal.page; });

/** Opens `href` signed in as the administrator. */
const openAsAdmin = async (href: string) => { page = await portal.openAs(DEV_ADMIN, href); };

/** The two claims of the clinician Lucia Vandermeer that the letter test links (also in the 100,000-row file). */
const VANDERMEER_CLAIMS = [
  '06/30/2025,Vandermeer,Lucia,,Defendant - Staff,CS-LV-1,Lawsuit,Final,Settled,02/01/2014,03/05/2014,"250,000.00",Delay in diagnosis',
  '06/30/2025,Vandermeer,Lucia,,Named in Claim,CS-LV-2,Claim,Final,Dismissed,08/01/2019,09/12/2019,0.00,Fall',
];

/** A credentialing request, submitted through its workflow. */
async function submittedRequest(overrides: Record<string, unknown>) {
  const id = await credentialingDraft(h, requester, overrides);
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (await h.orm.em.fork().findOneOrFail(RequestSchema, id));
}

describe("the administrators' desk in Chromium", () => {
  /** Found by Search and exported; no test changes it. */
  let request: Awaited<ReturnType<typeof submittedRequest>>;

  beforeAll(async () => {
    request = await submittedRequest({ lastName: 'Vandermeer', firstName: 'Lucia', dateFrom: '2012-01-01T11:00:00.000Z', dateTo: '2022-12-31T11:00:00.000Z' });
  });

  it('has no "later release" text on any desk screen, and OCA and milestones are under construction', async () => {
    for (const [href, heading] of [['/search', 'Search Submission History'], ['/faqs', 'Frequently Asked Questions'], ['/manage/templates', 'Email Templates'],
      ['/manage/policies', 'Manage Policies'], ['/manage/cs-stars', 'Manage CS-STARS Data'], ['/manage/faqs', 'Manage FAQs'], ['/manage/export', 'Export Requests'],
      ['/manage/oca', 'Manage OCA Data'], ['/manage/milestones', 'Manage Milestones']]) {
      if (href === '/search') await openAsAdmin(href);
      else await page.goto(href);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      expect(await page.getByText('arrives in a later release').count(), href).toBe(0);
    }
    expect(await page.getByText(DESK_MESSAGES.underConstruction).isVisible()).toBe(true);
  });

  it('searches submission history: the message without parameters, contains-matching, a row opening the request', async () => {
    await openAsAdmin('/search');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.searchParamsNeeded).isVisible()).toBe(true);
    await page.locator('input[name="searchFrom"]').fill('12/31/2030');
    await page.locator('input[name="searchTo"]').fill('01/01/2030');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.fromAfterTo).isVisible()).toBe(true);
    await shot('search-messages');
    await portal.checkA11y('search messages');
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.locator('input[name="clinLastName"]').fill('dermee');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: String(request.requestNumber) }).waitFor();
    await shot('search-results', true);
    await page.locator('input[name="clinLastName"]').fill('nobody-by-this-name');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.searchNone).isVisible()).toBe(true);
    await page.locator('input[name="clinLastName"]').fill('Vandermeer');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: String(request.requestNumber) }).click();
    await page.getByRole('heading', { name: 'Claim History and Insurance Verification Request' }).waitFor();
  });

  it('shows the FAQs accordion, and manages FAQs with add, edit and delete keeping the order', async () => {
    await openAsAdmin('/faqs');
    await page.getByText('How do I find an older request?').click();
    await expect.poll(() => page.getByText(/fill at least one filter/).isVisible()).toBe(true);
    await page.goto('/faqs', {}); // a requester would see the requester set: covered by the API test
    await shot('faqs');
    await page.goto('/manage/faqs');
    await page.locator('#faq-type-filter').selectOption('Admin');
    await page.getByRole('button', { name: 'Add FAQ' }).click();
    await page.getByRole('dialog').waitFor();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.getByRole('dialog').getByText('The field above is required').count()).toBeGreaterThan(0);
    await page.locator('select[name="type"]').selectOption('Admin');
    await page.locator('input[name="question"]').fill('How do I find an older request?');
    await page.locator('textarea[name="answer"]').fill('Duplicate.');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.faqDuplicate).isVisible()).toBe(true);
    await page.locator('input[name="question"]').fill('Who reviews the letters?');
    await page.locator('textarea[name="answer"]').fill('The risk-management office.');
    await page.locator('input[name="order"]').fill('1');
    await shot('faq-add');
    await portal.checkA11y('add FAQ dialog');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(false);
    const firstRow = page.locator('table tbody tr').first();
    await expect.poll(() => firstRow.innerText()).toContain('Who reviews the letters?');
    await firstRow.getByRole('button', { name: 'Delete FAQ 1' }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.faqDeleteConfirm).isVisible()).toBe(true);
    await shot('faq-delete-confirm');
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByText('Who reviews the letters?').count()).toBe(0);
    const orders = await page.locator('table tbody tr td:first-child').allInnerTexts();
    expect(orders.map(Number)).toEqual(orders.map((_, i) => i + 1));
    await shot('manage-faqs', true);
  });

  it('manages policies: the date message, money in USD, the delete confirmation', async () => {
    await openAsAdmin('/manage/policies');
    await page.getByRole('button', { name: 'Add Policy' }).click();
    await page.locator('input[name="startDate"]').fill('2091-07-01');
    await page.locator('input[name="endDate"]').fill('06/30/2092');
    await page.locator('input[name="policyNumber"]').fill('UHS-PL-2091-92');
    await page.locator('input[name="limitClaim"]').fill('3,100,000');
    await page.locator('input[name="annualAggregate"]').fill('$6,200,000');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.policyDateFormat).isVisible()).toBe(true);
    await shot('policy-date-message');
    await page.locator('input[name="startDate"]').fill('07/01/2091');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: 'UHS-PL-2091-92' });
    await row.waitFor();
    expect(await row.innerText()).toContain('$3,100,000.00');
    await shot('policies', true);
    await row.getByRole('button', { name: /Delete/ }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.policyDeleteConfirm).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByText('UHS-PL-2091-92').count()).toBe(0);
  });

  it('edits an email template: the unknown variable is refused, the preview renders, the update succeeds', async () => {
    await openAsAdmin('/manage/templates');
    const orders = await page.locator('table tbody tr td:first-child').allInnerTexts();
    expect(orders.map(Number)).toEqual([...orders.map(Number)].sort((a, b) => a - b));
    await page.getByRole('button', { name: 'Edit Request Discussion' }).click();
    const subject = page.locator('input[name="subject"]');
    const original = await subject.inputValue();
    await subject.fill('New message on {{requestNmber}}');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => page.getByText(/Unknown variable \{\{requestNmber\}\}/).isVisible()).toBe(true);
    await shot('template-unknown-variable');
    await portal.checkA11y('template dialog with an error');
    await subject.fill('New message on request {{requestNumber}}');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.locator('.preview').innerText()).toMatch(/New message on request \d+/);
    await page.getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.templateUpdated).isVisible()).toBe(true);
    await shot('template-updated', true);
    await subject.fill(original);
    await page.getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.templateUpdated).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('uploads CS-STARS data: the no-file message, a bad file refused by line, 100,000 rows with progress', async () => {
    await openAsAdmin('/manage/cs-stars');
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.csvRequired).isVisible()).toBe(true);
    const dir = os.tmpdir();
    const bad = path.join(dir, `bad-${process.pid}.csv`);
    writeFileSync(bad, `${CSV_HEADER}\n06/30/2025,Doe,Jane,,Witness,CS-B-1,Claim,Open,,01/02/2020,01/03/2020,0,x\n`);
    await page.locator('#cs-stars-file').setInputFiles(bad);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => page.getByText(/Line 2: involvement "Witness"/).isVisible()).toBe(true);
    await shot('cs-stars-refused');
    await portal.checkA11y('refused CSV');

    const big = path.join(dir, `claims-100k-${process.pid}.csv`);
    const out = createWriteStream(big);
    for (const line of claimLines(100_000, 42)) if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
    // The claims the letter test links, with the request's clinician.
    for (const line of VANDERMEER_CLAIMS) out.write(`${line}\n`);
    await new Promise((r) => out.end(r));
    await page.locator('#cs-stars-file').setInputFiles(big);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: /Uploading|Checking and loading/ }).first().waitFor();
    await shot('cs-stars-progress');
    await expect.poll(() => page.getByText(/Loaded 100,002 claims/).isVisible(), { timeout: 90_000 }).toBe(true);
    await expect.poll(() => page.locator('table tbody tr').count(), { timeout: 30_000 }).toBe(10_000);
    const dates = (await page.locator('table tbody tr td:nth-child(7)').allInnerTexts()).slice(0, 200)
      .map((d) => `${d.slice(6)}${d.slice(0, 2)}${d.slice(3, 5)}`);
    expect(dates).toEqual([...dates].sort().reverse());
    // The page holds 10,000 rows: the visible part only.
    if (screenshotsWanted()) await page.screenshot({ path: screenshotPath('desk-cs-stars-loaded') });
  });

  it('links two claims to the credentialing request, and the approval letter lists them', async () => {
    // A request of its own (it is approved below) and the clinician's claims in the CS-STARS data.
    const request = await submittedRequest({ lastName: 'Vandermeer', firstName: 'Lucia', dateFrom: '2012-01-01T11:00:00.000Z', dateTo: '2022-12-31T11:00:00.000Z' });
    const loaded = await uploadClaimsCsv(h, admin, `${CSV_HEADER}\n${VANDERMEER_CLAIMS.join('\n')}\n`);
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(201);
    await openAsAdmin(`/requests/credentialing/${request.id}`);
    await page.getByRole('button', { name: 'Search Claims' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[name="claimLastName"]').fill('Nobody');
    await dialog.locator('input[name="claimFirstName"]').fill('Atall');
    await dialog.getByLabel('Last and first name').check();
    await dialog.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => dialog.getByText(DESK_MESSAGES.claimsNone).isVisible()).toBe(true);
    await dialog.locator('input[name="claimLastName"]').fill('Vandermeer');
    await dialog.locator('input[name="claimFirstName"]').fill('Lucia');
    await dialog.getByRole('button', { name: 'Search', exact: true }).click();
    await dialog.getByLabel('Select claim CS-LV-1').check();
    await dialog.getByLabel('Select claim CS-LV-2').check();
    await shot('claim-search');
    await portal.checkA11y('claim search dialog');
    await dialog.getByRole('button', { name: 'Link 2 Selected Claims' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'CS-LV-2' }).isVisible()).toBe(true);
    await shot('claims-linked', true);

    await page.locator('select[name="status"]').selectOption('Approved');
    await page.locator('input[name="verified"]').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('cell', { name: /^Claim History and Insurance Verification \d+\.pdf$/ }).isVisible(), { timeout: 60_000 }).toBe(true);
    const em = h.orm.em.fork();
    const effect = await em.findOneOrFail(RequestEffectSchema, { requestId: request.id, kind: 'letter-and-email' });
    const letter = (effect.snapshot as { letter: { claims: { claimNumber: string; indemnityPaid: string }[] } }).letter;
    expect(letter.claims.map((c) => [c.claimNumber, c.indemnityPaid])).toEqual([['CS-LV-1', '250000.00'], ['CS-LV-2', '0.00']]);
    const pdf = await em.findOneOrFail(DocumentSchema, { id: effect.letterDocumentId! });
    expect(readFileSync(h.files.pathOf(pdf.storedName)).subarray(0, 5).toString()).toBe('%PDF-');
    await shot('approved-with-claims');
  });

  it('exports requests to an xlsx that exceljs reads back, with the list of exports', async () => {
    const before = (await call(h, admin, 'GET', '/api/v1/export-requests')).body.data.length;
    await openAsAdmin('/manage/export');
    if (before === 0) await expect.poll(() => page.getByText(DESK_MESSAGES.noExports).isVisible()).toBe(true);
    await page.locator('input[name="dateFrom"]').fill('12/31/2030');
    await page.locator('input[name="dateTo"]').fill('01/01/2030');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await expect.poll(() => page.getByText(DESK_MESSAGES.fromAfterTo).isVisible()).toBe(true);
    await page.locator('input[name="dateFrom"]').fill('');
    await page.locator('input[name="dateTo"]').fill('');
    await page.locator('select[name="filterByType"]').selectOption('Claim History and Insurance Verification');
    // The browser downloads the xlsx by itself once it is written (spec 2 §7.11).
    const [file] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^coi_export_\d{4}-\d{2}-\d{2}_\d{6}\.xlsx$/);
    // The list keeps it, with its Download button for a later copy.
    const download = page.locator('table tbody tr').first().getByRole('button', { name: /^Download coi_export_/ });
    await download.waitFor({ timeout: 30_000 });
    await shot('exports', true);
    const [again] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(again.suggestedFilename()).toBe(file.suggestedFilename());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await file.path())!);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('Request Number');
    const numbers = sheet.getColumn(1).values.slice(2);
    expect(numbers).toContain(request.requestNumber);
  });
});
