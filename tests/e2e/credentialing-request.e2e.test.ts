/**
 * A claim history request from sign-in to the requester's downloaded letter, in a real browser (Chromium through
 * playwright-core) against the whole portal on real parts.
 * Screenshots go to test-results/screenshots (git-ignored); axe checks every page (tests/support/portal-browser.ts).
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RequestSchema } from '../../db/entities';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER, DEV_REQUESTER } from '../../db/seed-data';
import { CREDENTIALING_KIND, DEFAULT_OFFICE_TIME_ZONE, fieldsOf, formatOfficeDate, officeToday, MESSAGES } from '../../domain';
import { credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { decideByApi, documentStored, submitByApi, type Made } from '../support/e2e-fixtures';
import type { Harness } from '../support/portal-harness';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('credentialing');
let h: Harness;
let page: Page;
let admin: Session;
let requester: Session;

beforeAll(async () => {
  h = portal.h;
  admin = await loginAdmin(h);
  requester = await loginRequester(h);
});
beforeEach(() => { page = portal.page; });

const shot = (name: string) => portal.shot(name);
const signIn = (email: string, password: string) => portal.signIn(email, password);

/** The requester's complete claim history request (one document), submitted through the API. */
const submittedRequest = async (overrides: Record<string, unknown> = {}): Promise<Made> =>
  submitByApi(h, requester, await credentialingDraft(h, requester, overrides));

/** Signs in as `user` and opens the claim history form from the dashboard. */
async function openNewForm(user: { email: string }) {
  page = await portal.openAs(user);
  await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  await page.getByRole('link', { name: 'New Claim History and Insurance Verification Request' }).click();
  await page.getByRole('heading', { name: 'Claim History and Insurance Verification Request' }).waitFor();
}

describe('a claim history request from the requester to the administrator and back', () => {
  it('refuses a wrong password with the spec message, then shows the requester dashboard', async () => {
    await signIn(DEV_REQUESTER.email, 'Not-The-Password1');
    await expect.poll(() => page.getByText(MESSAGES.loginFailed, { exact: true }).isVisible()).toBe(true);
    await shot('login-failed');

    await signIn(DEV_REQUESTER.email, DEV_REQUESTER.password);
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await expect.poll(() => page.getByRole('tab', { name: /^Submitted Requests \(\d+\)$/ }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('tab', { name: /^Draft Requests \(\d+\)$/ }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'New Certificate of Insurance Request' }).waitFor();
    await shot('requester-dashboard');
  });

  it('shows the spec messages on bad input and saves a draft', async () => {
    await openNewForm(DEV_REQUESTER);
    await page.locator('input[name="birthDate"]').fill('13/45/1980');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => page.getByText(MESSAGES.required, { exact: true }).count()).toBeGreaterThan(2);
    expect(await page.getByText(MESSAGES.requestDateFormat, { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.getByText(MESSAGES.requiredDocuments, { exact: true }).isVisible()).toBe(true);
    await shot('form-errors');
    await portal.checkA11y('form with errors');

    await page.locator('input[name="lastName"]').fill('Okafor');
    await page.locator('input[name="firstName"]').fill('Jordan');
    await page.locator('input[name="birthDate"]').fill('04/12/1980');
    await page.locator('input[name="dateFrom"]').fill('01/01/2021');
    await page.locator('input[name="dateTo"]').fill('12/31/2024');
    await page.locator('select[name="providerType"]').selectOption('Current Employee/Fellow/Resident');
    await page.locator('select[name="reason"]').selectOption('Future employment');
    // The Authorization section's confirmation (from the kind's definition), required like the rest.
    expect(await page.locator('#field-releaseAuthorized-error').innerText()).toBe(MESSAGES.required);
    await page.locator('input[name="releaseAuthorized"]').check();
    // External requesters type the clinician themselves: no directory search.
    expect(await page.getByRole('button', { name: 'Add Clinician' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await page.waitForURL(/\/requests\/credentialing\/\d+\/edit$/);
    await expect.poll(() => page.getByText('Draft saved').isVisible()).toBe(true);
    const draftId = Number(/\/requests\/credentialing\/(\d+)\/edit$/.exec(page.url())![1]);
    const draftNumber = String((await h.orm.em.fork().findOneOrFail(RequestSchema, draftId)).requestNumber);

    // Save Draft puts it under Draft Requests; Edit brings the saved values back.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('tab', { name: /^Draft Requests \(\d+\)$/ }).click();
    const draftRow = page.getByRole('row').filter({ hasText: draftNumber }).filter({ hasText: 'Okafor' });
    await draftRow.first().waitFor();
    await shot('draft-listed');
    await draftRow.first().getByRole('link', { name: 'Edit' }).click();
    await expect.poll(() => page.locator('input[name="lastName"]').inputValue()).toBe('Okafor');
    expect(await page.locator('input[name="dateTo"]').inputValue()).toBe('12/31/2024');
    expect(await page.locator('input[name="releaseAuthorized"]').isChecked()).toBe(true);

    await page.locator('input[name="file"]').setInputFiles({
      name: 'signed-release.pdf', mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
    });
    await page.locator('input[name="description"]').fill('Signed release');
    await page.getByRole('button', { name: 'Add a Document' }).click();
    await page.getByRole('cell', { name: 'signed-release.pdf' }).waitFor();
    await shot('form-complete');
    await portal.checkA11y('form with a document');
  });

  it('submits: the request gets its number, Submitted, PENDING, and the confirmation email', async () => {
    // A complete draft with its signed release (the form is the test above), for a clinician of its own.
    const id = await credentialingDraft(h, requester, { lastName: 'Abernathy-Submit', firstName: 'Jordan' });
    page = await portal.openAs(DEV_REQUESTER, `/requests/credentialing/${id}/edit`);
    await page.getByRole('cell', { name: 'Signed release.pdf' }).waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    // A current employee's claim history request asks whether a current certificate is also needed (spec 1 §1).
    const question = page.getByRole('dialog', { name: 'Your request was submitted' });
    await question.getByText('Do you also need a current Certificate of Insurance for this clinician?').waitFor();
    await portal.checkA11y('certificate follow-up question');
    await question.getByRole('button', { name: 'No, thank you' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Abernathy-Submit' });
    await row.first().waitFor();
    const text = await row.first().innerText();
    const requestNumber = /\b(5\d{4,})\b/.exec(text)![1];
    expect(Number(requestNumber)).toBe((await h.orm.em.fork().findOneOrFail(RequestSchema, id)).requestNumber);
    expect(text).toContain('Submitted');
    expect(text).toContain('PENDING');
    expect(text).toContain(formatOfficeDate(officeToday(DEFAULT_OFFICE_TIME_ZONE), DEFAULT_OFFICE_TIME_ZONE));
    await expect.poll(() => page.getByRole('heading', { name: 'In Progress' }).isVisible()).toBe(true);
    await shot('submitted');

    const mail = await h.sink.waitFor((m) => m.subject.includes(requestNumber), 60_000);
    expect(mail.to).toEqual([DEV_REQUESTER.email]);
  });

  it('the administrator approves it, after the verified box is ticked', async () => {
    const requestNumber = String((await submittedRequest({ lastName: 'Abernathy-Approve', firstName: 'Jordan' })).number);
    page = await portal.openAs(DEV_ADMIN);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('tab', { name: /^Claim History and Insurance Verification Requests \(\d+\)$/ }).waitFor();
    await page.getByText('Today').first().waitFor();
    await expect.poll(() => page.getByRole('heading', { name: 'Pending Review' }).isVisible()).toBe(true);
    await shot('admin-dashboard');

    await page.getByRole('row').filter({ hasText: requestNumber }).getByRole('link', { name: 'View' }).click();
    await page.getByText(`Request Number: ${requestNumber}`).waitFor();
    await page.locator('select[name="status"]').selectOption('Approved');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText(MESSAGES.verificationRequired, { exact: true }).isVisible()).toBe(true);
    await shot('verification-required');
    await portal.checkA11y('manage request with an error');

    await page.locator('input[name="verified"]').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText('Save Successful').isVisible(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => page.getByText('Status: Approved').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('cell', { name: /^Claim History and Insurance Verification \d+\.pdf$/ }).isVisible(), { timeout: 30_000 }).toBe(true);
    await shot('approved');

    await h.sink.waitFor((m) => m.subject.includes(`${requestNumber} approved`) && m.attachments.length === 1, 30_000);
    await page.getByRole('tab', { name: 'Request Audit Details' }).click();
    await expect.poll(() => page.getByText('"Credentialing Request Approved" email sent').isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await page.getByText('COI Automated Email System').first().isVisible()).toBe(true);
    await shot('audit');
    await portal.checkA11y('audit tab');
  });

  it('the requester sees it Completed with its approval date and downloads the letter', async () => {
    const approved = await submittedRequest({ lastName: 'Abernathy-Completed', firstName: 'Jordan' });
    await decideByApi(h, admin, approved.id, 'Approved', { verified: true });
    await documentStored(h, approved.id, 'Claim History and Insurance Verification ');
    const requestNumber = String(approved.number);
    page = await portal.openAs(DEV_REQUESTER);
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await expect.poll(() => page.getByRole('heading', { name: 'Completed' }).isVisible()).toBe(true);
    const row = page.getByRole('row').filter({ hasText: requestNumber });
    const text = await row.first().innerText();
    expect(text).toContain('Approved');
    expect(text).not.toContain('PENDING');
    expect(text.match(/\d{2}\/\d{2}\/\d{4}/g)!.length).toBeGreaterThanOrEqual(2); // submission and approval dates
    await shot('requester-completed');

    await row.getByRole('link', { name: 'View' }).click();
    const letterRow = page.getByRole('row').filter({ hasText: /Claim History and Insurance Verification \d+\.pdf/ });
    const [download] = await Promise.all([page.waitForEvent('download'), letterRow.getByRole('button', { name: 'Download' }).click()]);
    const file = await download.path();
    expect(readFileSync(file!).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await page.getByText('Manage Request').count()).toBe(0); // requesters see details only
    await shot('requester-view');
  });
});

describe('an internal requester fills the claim history form from its definition', () => {
  const authorization = fieldsOf(CREDENTIALING_KIND).find((f) => f.name === 'releaseAuthorized')!;

  it('shows the definition\'s sections and labels, Add Clinician among them', async () => {
    await openNewForm(DEV_INTERNAL_REQUESTER);

    const form = page.getByRole('form', { name: `${CREDENTIALING_KIND.title} request` });
    for (const section of CREDENTIALING_KIND.sections) {
      expect(await form.getByRole('group', { name: section.title, exact: true }).count(), section.title).toBe(1);
    }
    // Every text and choice field the definition shows an internal requester, by its label (the licensing state
    // waits for its reason; the Authorization box is checked by its role below).
    for (const field of fieldsOf(CREDENTIALING_KIND).filter((f) => !f.visibleWhen && f.kind !== 'checkbox')) {
      expect(await form.getByLabel(field.label, { exact: true }).count(), field.label).toBe(1);
    }
    expect(await form.getByRole('group', { name: 'Authorization' }).getByRole('checkbox', { name: authorization.label }).count()).toBe(1);
    expect(await form.getByRole('group', { name: 'Request Recipient' }).getByLabel('Additional Recipients', { exact: true }).count()).toBe(1);
    await shot('internal-form-1280');
    await page.setViewportSize({ width: 768, height: 900 });
    await shot('internal-form-768');
    await portal.checkA11y('claim history form at 768 px');
    await page.setViewportSize({ width: 1280, height: 900 });
    await portal.checkA11y('claim history form at 1280 px');
  });

  /** Add Clinician: searches the directory by the employee id and picks the employee; `look` runs on the open dialog. */
  async function pickClinician(look: () => Promise<void> = async () => {}) {
    await page.getByRole('button', { name: 'Add Clinician' }).click();
    const dialog = page.getByRole('dialog', { name: 'Find Clinician' });
    await dialog.waitFor();
    await dialog.getByLabel('Employee ID').fill(DEV_INTERNAL_REQUESTER.employeeId);
    await dialog.getByRole('button', { name: 'Search' }).click();
    await dialog.getByRole('radio', { name: `${DEV_INTERNAL_REQUESTER.firstName} ${DEV_INTERNAL_REQUESTER.lastName}` }).check();
    await look();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('input[name="lastName"]').inputValue()).toBe(DEV_INTERNAL_REQUESTER.lastName);
  }

  it('Add Clinician searches the directory by employee id; Apply fills the clinician and records the employee id', async () => {
    await openNewForm(DEV_INTERNAL_REQUESTER);
    await pickClinician(async () => {
      await portal.checkA11y('clinician search');
      await shot('clinician-search');
    });

    await expect.poll(() => page.locator('input[name="lastName"]').inputValue()).toBe(DEV_INTERNAL_REQUESTER.lastName);
    expect(await page.locator('input[name="firstName"]').inputValue()).toBe(DEV_INTERNAL_REQUESTER.firstName);
    expect(await page.locator('input[name="email"]').inputValue()).toBe(DEV_INTERNAL_REQUESTER.email);
    expect(await page.locator('input[name="employeeId"]').inputValue()).toBe(DEV_INTERNAL_REQUESTER.employeeId);
    expect(await page.locator('input[name="employeeId"]').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('button', { name: 'Change Clinician' }).count()).toBe(1);
  });

  it('saves and submits; the stored request carries the employee id, the authorization and the additional recipients', async () => {
    await openNewForm(DEV_INTERNAL_REQUESTER);
    await pickClinician();
    await page.locator('input[name="dateFrom"]').fill('01/01/2019');
    await page.locator('input[name="dateTo"]').fill('12/31/2023');
    await page.locator('select[name="providerType"]').selectOption('Former Employee/Fellow/Resident');
    await page.locator('select[name="reason"]').selectOption('Payor/Insurance credentialing');
    await page.getByLabel('Additional Recipients', { exact: true }).fill('credentialing@payor.example; office@payor.example');
    await page.getByRole('checkbox', { name: authorization.label }).check();
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await page.waitForURL(/\/requests\/credentialing\/\d+\/edit$/);
    await expect.poll(() => page.getByText('Draft saved').isVisible()).toBe(true);
    const id = Number(/\/requests\/credentialing\/(\d+)\/edit$/.exec(page.url())![1]);

    await page.locator('input[name="file"]').setInputFiles({
      name: 'signed-release-staffer.pdf', mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
    });
    await page.locator('input[name="description"]').fill('Signed release');
    await page.getByRole('button', { name: 'Add a Document' }).click();
    await page.getByRole('cell', { name: 'signed-release-staffer.pdf' }).waitFor();
    await shot('internal-form-complete');

    await page.getByRole('button', { name: 'Submit' }).click();
    const done = page.getByRole('dialog', { name: 'Your request was submitted' });
    await done.waitFor();
    await done.getByRole('button', { name: 'OK' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();

    const stored = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(stored).toMatchObject({
      status: 'Submitted', employeeId: DEV_INTERNAL_REQUESTER.employeeId, lastName: DEV_INTERNAL_REQUESTER.lastName,
      email: DEV_INTERNAL_REQUESTER.email, releaseAuthorized: true, addlRecipients: 'credentialing@payor.example; office@payor.example',
    });
  });
});
