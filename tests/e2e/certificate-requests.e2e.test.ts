/**
 * Certificates in Chromium on the whole portal: an internal requester fills a rental, an event and a contracts/lease
 * certificate (picking people from the directory), the external requester a Clinician certificate; the
 * administrator approves them (contracts/lease with a Letter of Intent) and each requester gets the PDF by email.
 * axe checks every page (tests/support/portal-browser.ts). Screenshots: test-results/screenshots/certificate-*.png.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER, DEV_REQUESTER } from '../../db/seed-data';
import { MESSAGES } from '../../domain';
import { certificateDraft } from '../support/api-helpers';
import { decideByApi, sessionOf, submitByApi, type Made } from '../support/e2e-fixtures';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('certificate');
let page: Page;

beforeEach(() => { page = portal.page; });

/**
 * A certificate of a subtype, submitted by its requester through the API (a session taken now: the tests that sign
 * out through the page end the sessions made before).
 */
async function submittedCertificate(user: { email: string }, subtype: string): Promise<Made> {
  const session = await sessionOf(portal.h, user);
  return submitByApi(portal.h, session, await certificateDraft(portal.h, session, subtype));
}

const fill = (name: string, value: string) => page.locator(`[name="${name}"]`).fill(value);
const choose = (name: string, value: string) => page.locator(`select[name="${name}"]`).selectOption(value);
const answer = (name: string, value: 'Yes' | 'No') => page.locator(`input[name="${name}"][value="${value}"]`).check();

async function startCertificate(type: string) {
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('link', { name: 'New Certificate of Insurance Request' }).click();
  await page.getByRole('heading', { name: 'Certificate of Insurance Request' }).waitFor();
  await choose('certificateType', type);
}

/** Opens the person search, finds the seeded employee by name and applies it. */
async function pickPersonFromDirectory(role: string) {
  await page.getByRole('button', { name: `Add ${role}` }).click();
  const dialog = page.getByRole('dialog', { name: `Find ${role}` });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Search' }).click();
  await dialog.getByText('Search criteria is required.').waitFor();
  await dialog.getByLabel('Last Name').fill('staff');
  await dialog.getByLabel('First Name').fill('jord');
  await dialog.getByRole('button', { name: 'Search' }).click();
  await dialog.getByRole('radio', { name: 'Jordan Staffer' }).check();
  expect(await dialog.getByRole('columnheader', { name: 'Type' }).count()).toBe(0); // administrators only
  await portal.checkA11y(`person search (${role})`);
  await portal.shot(`person-search-${role.replace(/\s+/g, '-').toLowerCase()}`);
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => page.locator('input[name="lastName"]').inputValue()).toBe('Staffer');
  expect(await page.locator('input[name="employeeId"]').inputValue()).toBe(DEV_INTERNAL_REQUESTER.employeeId);
}

async function attachDocument(name: string) {
  await page.locator('input[name="file"]').setInputFiles({
    name, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
  });
  await page.locator('input[name="description"]').fill('Signed agreement');
  await page.getByRole('button', { name: 'Add a Document' }).click();
  await page.getByRole('cell', { name }).waitFor();
}

async function holder(name: string) {
  await fill('certificateHolder', name);
  await fill('certificateHolderAddress', '100 SW Main St\nPortland, OR 97204');
}

/** Saves the draft and reads its number (numbers are given at creation). */
async function saveAndReadNumber(): Promise<string> {
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await page.waitForURL(/\/requests\/certificate\/\d+\/edit$/);
  const meta = await page.getByText(/^Request Number: \d+/).innerText();
  return /(\d{5,})/.exec(meta)![1];
}

/**
 * Submits, reads the submit-success modal (spec 1 §2, after every submit): it names the request's
 * number and, with no follow-up question for this kind, offers OK, which leads to the dashboard.
 */
async function submitAndExpectDashboard() {
  await page.getByRole('button', { name: 'Submit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your request was submitted' });
  await dialog.getByText(/^Request \d{5,} is now with the Risk Management office\./).waitFor();
  expect(await dialog.getByRole('button', { name: 'No, thank you' }).count()).toBe(0);
  await portal.checkA11y('submit success');
  await portal.shot('submit-success');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
}

describe('an internal requester creates certificates of several subtypes', () => {
  it('signs in as an employee', async () => {
    await portal.signIn(DEV_INTERNAL_REQUESTER.email, DEV_INTERNAL_REQUESTER.password);
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  });

  it('a rental: no request recipient, the approval checkbox shows an error while unchecked', async () => {
    page = await portal.openAs(DEV_INTERNAL_REQUESTER);
    await startCertificate('Auto Liability');
    await choose('autoType', 'Rental');
    expect(await page.locator('input[name="recipientEmail"]').count()).toBe(0);
    expect(await page.getByText('Additional insureds cannot be named').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Please correct the fields marked below.').waitFor();
    expect(await page.getByText(MESSAGES.required, { exact: true }).count()).toBeGreaterThan(4);
    await portal.checkA11y('rental with errors');
    await portal.shot('rental-errors');

    await pickPersonFromDirectory('Employee');
    await fill('driverName', 'Jordan Staffer');
    await fill('rentalCompany', 'Hertz');
    await fill('pickUpAddress', 'Portland International Airport');
    await fill('rentalStartDate', '03/01/2025');
    await fill('rentalEndDate', '03/05/2025');
    await fill('vehicleIdNumber', '2HGFC2F59MH512345');
    await holder('Hertz Rent-A-Car');
    const rental = await saveAndReadNumber();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText(MESSAGES.required, { exact: true }).first().waitFor(); // the unchecked approval box
    expect(await page.locator('input[name="acknowledgedApproval"]').getAttribute('aria-invalid')).toBe('true');
    await page.locator('input[name="acknowledgedApproval"]').check();
    await portal.shot('rental-complete');
    await submitAndExpectDashboard();
    await page.getByRole('row').filter({ hasText: rental }).first().waitFor();
  });

  it('an event: Yes reveals its detail, the event contract is required', async () => {
    page = await portal.openAs(DEV_INTERNAL_REQUESTER);
    await startCertificate('Event');
    await pickPersonFromDirectory('Event Organizer');
    await fill('eventName', 'Spring Health Fair');
    await choose('eventType', 'Community Service');
    await fill('eventLocation', 'Pioneer Courthouse Square');
    await fill('eventDescription', 'Free blood pressure screenings');
    await fill('eventStartDate', '05/01/2025');
    await fill('eventEndDate', '05/01/2025');
    expect(await page.locator('[name="eventPatientCareDetail"]').count()).toBe(0);
    await answer('eventPatientCare', 'Yes');
    await fill('eventPatientCareDetail', 'Screenings by registered nurses');
    await answer('isProviderEmployRelated', 'Yes');
    await holder('City of Portland Parks');
    await saveAndReadNumber();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText(MESSAGES.requiredDocuments).waitFor();
    await attachDocument('event-permit.pdf');
    await portal.shot('event-complete');
    await submitAndExpectDashboard();
  });

  it('a contracts/lease certificate, then the follow-up question about a claim history request', async () => {
    page = await portal.openAs(DEV_INTERNAL_REQUESTER);
    await startCertificate('Contracts/Lease');
    await choose('contractLeaseType', 'Lease');
    await fill('leaseNumber', 'L-2291');
    await fill('leaseExpirationDate', '06/30/2027');
    await answer('isForLeasedProperty', 'Yes');
    await fill('leasedPropertyName', 'Gaines Hall');
    await fill('leasedPropertyAddress', '3181 SW Sam Jackson Park Rd');
    await fill('internalContact', 'Pat Lee 503-494-3333');
    await holder('Mercy Property Group');
    const lease = await saveAndReadNumber();
    await attachDocument('lease.pdf');
    await page.getByRole('button', { name: 'Submit' }).click();
    const question = page.getByRole('dialog', { name: 'Your request was submitted' });
    await question.getByText('Do you also need a Claim History and Insurance Verification request?').waitFor();
    await portal.checkA11y('follow-up question');
    await portal.shot('follow-up');
    await question.getByRole('button', { name: 'No, thank you' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.getByRole('row').filter({ hasText: lease }).first().waitFor();
    await portal.shot('employee-dashboard');
    await portal.signOut();
  });
});

describe('the external requester', () => {
  it('gets the Clinician form without a type selector and types the person', async () => {
    page = await portal.openAs(DEV_REQUESTER);
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.getByRole('link', { name: 'New Certificate of Insurance Request' }).click();
    await page.getByText('Certificate Type: Clinician').waitFor();
    expect(await page.locator('select[name="certificateType"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add Clinician' }).count()).toBe(0);
    await fill('lastName', 'Okafor');
    await fill('firstName', 'Jordan');
    await fill('workPhone', '5034941234');
    expect(await page.locator('input[name="workPhone"]').inputValue()).toBe('503-494-1234');
    await fill('dateFrom', '01/01/2025');
    await fill('dateTo', '06/30/2025');
    await fill('facilityName', 'Mercy Hospital');
    await holder('Mercy Hospital Credentialing');
    await saveAndReadNumber();
    await portal.shot('external-clinician');
    await submitAndExpectDashboard();
    await portal.signOut();
  });
});

describe('the administrator approves each one and the requesters receive the PDFs', () => {
  async function decide({ id, number }: Made, status: string, verify = false) {
    // A client-side navigation, as the application's own links make.
    await page.evaluate((href) => { window.history.pushState({}, '', href); window.dispatchEvent(new PopStateEvent('popstate')); }, `/requests/certificate/${id}`);
    await page.getByText(`Request Number: ${number}`).waitFor({ timeout: 60_000 });
    await choose('status', status);
    if (verify) await page.locator('input[name="verified"]').check();
    // This Save's own answer, then the panel's word for it: a 'Save Successful' of an Admin Edit made just before may
    // still stand elsewhere on the page.
    const answered = page.waitForResponse((r) => r.request().method() === 'PATCH' && new URL(r.url()).pathname === `/api/v1/requests/${id}`, { timeout: 60_000 });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await answered).status()).toBe(200);
    await expect.poll(() => page.locator('.manage-panel__status').textContent(), { timeout: 60_000 }).toBe('Save Successful');
  }

  it('approves the rental, the event and the clinician certificate; the lease with a Letter of Intent; each PDF is emailed to its requester', async () => {
    // The four requests, submitted by their requesters (the forms are the tests above).
    const rental = await submittedCertificate(DEV_INTERNAL_REQUESTER, 'Rental');
    const event = await submittedCertificate(DEV_INTERNAL_REQUESTER, 'Event');
    const clinician = await submittedCertificate(DEV_REQUESTER, 'Clinician');
    const lease = await submittedCertificate(DEV_INTERNAL_REQUESTER, 'Contracts/Lease');
    const numbers = { rental: String(rental.number), event: String(event.number), clinician: String(clinician.number), lease: String(lease.number) };

    page = await portal.openAs(DEV_ADMIN);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('tab', { name: /^Certificate Requests \(\d+\)$/ }).click();
    await choose('requestTypeFilter', 'COI Request: Rental');
    // Every group table of the filtered tab shows the VIN column (a shared database may hold rentals in several groups).
    await page.getByRole('columnheader', { name: 'VIN' }).first().waitFor();
    await page.getByRole('row').filter({ hasText: numbers.rental }).getByRole('cell', { name: '2HGFC2F59MH512345' }).waitFor();
    await portal.shot('admin-rental-filter');
    await choose('requestTypeFilter', '');

    await decide(rental, 'Approved');
    await expect.poll(() => page.getByRole('cell', { name: `Certificate of Insurance ${numbers.rental}.pdf` }).isVisible(), { timeout: 30_000 }).toBe(true);
    await portal.shot('admin-rental-approved');
    // Admin Edit, in place: the subtype's fields without the disclaimer and the type selector; Save keeps the status.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('tab', { name: /^Certificate Requests \(\d+\)$/ }).click();
    await page.getByRole('row').filter({ hasText: numbers.event }).getByRole('link', { name: 'View' }).click();
    await page.getByRole('button', { name: 'Admin Edit' }).click();
    const editForm = page.getByRole('form', { name: 'Edit request' });
    await editForm.locator('input[name="eventLocation"]').waitFor();
    expect(await page.getByText('Additional insureds cannot be named').count()).toBe(0);
    expect(await page.locator('select[name="certificateType"]').count()).toBe(0);
    await fill('eventLocation', 'Director Park');
    await editForm.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Director Park').first().waitFor();
    await page.getByText('Save Successful').first().waitFor();
    expect(await page.getByText('Status: Submitted').first().isVisible()).toBe(true);
    await portal.shot('admin-edited-event');
    await decide(event, 'Approved');
    await decide(clinician, 'Approved');

    await decide(lease, 'Approved with Letter of Intent', true);
    await expect.poll(() => page.getByRole('cell', { name: `Letter of Intent ${numbers.lease}.pdf` }).isVisible(), { timeout: 30_000 }).toBe(true);
    await page.getByText('Gaines Hall').first().waitFor(); // the view shows every entered value
    await portal.shot('admin-lease-loi');

    // Each requester receives the PDF with the certificate templates.
    const { sink } = portal.h;
    const expectMail = async (number: string, subject: string, to: string, file: string) => {
      const mail = await sink.waitFor((m) => m.subject === subject.replace('{n}', number), 60_000);
      expect(mail.to).toContain(to);
      expect(mail.attachments.map((a) => a.filename)).toEqual([file.replace('{n}', number)]);
    };
    await expectMail(numbers.rental, 'Request {n} approved: certificate of insurance', DEV_INTERNAL_REQUESTER.email, 'Certificate of Insurance {n}.pdf');
    await expectMail(numbers.event, 'Request {n} approved: certificate of insurance', DEV_INTERNAL_REQUESTER.email, 'Certificate of Insurance {n}.pdf');
    await expectMail(numbers.clinician, 'Request {n} approved: certificate of insurance', DEV_REQUESTER.email, 'Certificate of Insurance {n}.pdf');
    await expectMail(numbers.lease, 'Request {n} approved with letter of intent', DEV_INTERNAL_REQUESTER.email, 'Letter of Intent {n}.pdf');
  }, 180_000); // four approvals and their mails (they were two tests)

  it('the requester sees the approved certificate with Clone, which opens a new draft with its values', async () => {
    const event = await submittedCertificate(DEV_INTERNAL_REQUESTER, 'Event');
    await decideByApi(portal.h, await sessionOf(portal.h, DEV_ADMIN), event.id, 'Approved');
    page = await portal.openAs(DEV_INTERNAL_REQUESTER);
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    const row = page.getByRole('row').filter({ hasText: String(event.number) });
    await row.getByRole('link', { name: /^Clone request/ }).click();
    await page.getByRole('heading', { name: 'Certificate of Insurance Request' }).waitFor();
    await expect.poll(() => page.locator('input[name="eventName"]').inputValue()).toBe('Spring Health Fair');
    expect(await page.getByText('No documents.').isVisible()).toBe(true);
    await portal.shot('clone');
  });
});
