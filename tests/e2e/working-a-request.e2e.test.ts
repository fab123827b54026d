/**
 * Issue #7 "Done means", in Chromium: a requester and an administrator hold a two-message thread on a submitted
 * request; the administrator sends Additional Information Needed by hand, adds a document flagged for the approval
 * email (and renames it in the Edit dialog), edits a field in place, approves; the approval email (read from the
 * SMTP sink) carries the generated PDF and the flagged document; the audit tab shows every step; the thread is
 * closed to new messages, the document actions and Edit are gone; Generate PDF still regenerates the letter.
 * axe checks every page and dialog (tests/support/portal-browser.ts).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADMIN, DEV_REQUESTER } from '../../db/seed-data';
import { MESSAGES } from '../../domain';
import { call, credentialingDraft, loginRequester } from '../support/api-helpers';
import type { Harness } from '../support/portal-harness';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('working-a-request');
let h: Harness;
let page: Page;
let request: { id: number; number: number };

beforeAll(async () => {
  h = portal.h;
  page = portal.page;
  const requester = await loginRequester(h);
  const id = await credentialingDraft(h, requester, { facilityName: 'Mercy Hospital' });
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status).toBe(200);
  request = { id, number: res.body.requestNumber };
});

const threadRows = () => page.getByRole('table', { name: 'Recent Discussions' }).locator('tbody tr');
const documentsTable = () => page.getByRole('table', { name: 'Supporting Documents' });
const documentRow = (name: string | RegExp) => documentsTable().getByRole('row').filter({ hasText: name });
const viewPage = () => page.goto(`/requests/credentialing/${request.id}`);
const forRequest = (subject: string) => subject.includes(String(request.number));

describe('working a request together, in Chromium', () => {
  it('a two-message thread: the administrator asks, the requester answers', async () => {
    await portal.signIn(DEV_ADMIN.email, DEV_ADMIN.password);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await viewPage();
    await page.getByRole('button', { name: 'New Discussion' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Discussion' });
    await dialog.getByLabel('Discussion Topic').fill('Requesting facility');
    await dialog.getByLabel('Message').fill('Is the letter for Mercy Hospital or Mercy Medical Center?');
    await dialog.getByRole('button', { name: 'Post Message' }).click();
    await expect.poll(() => threadRows().count()).toBe(1);
    await portal.signOut();

    await portal.signIn(DEV_REQUESTER.email, DEV_REQUESTER.password);
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await viewPage();
    await page.getByRole('button', { name: 'Reply to Requesting facility' }).click();
    const reply = page.getByRole('dialog', { name: 'Reply' });
    await reply.getByLabel('Message').fill('Mercy Medical Center, please.');
    await reply.getByRole('button', { name: 'Post Message' }).click();
    await expect.poll(() => threadRows().count()).toBe(2);
    // requesters see the documents, without the administrators' actions
    await documentRow('Signed release.pdf').waitFor();
    expect(await page.getByRole('button', { name: 'Generate PDF' }).count()).toBe(0);
    expect(await documentsTable().getByRole('columnheader', { name: 'Action' }).count()).toBe(0);
    await portal.shot('requester-thread');
    await portal.signOut();
  });

  it('the administrator sends Additional Information Needed by hand and adds a document flagged for the approval email', async () => {
    await portal.signIn(DEV_ADMIN.email, DEV_ADMIN.password);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await viewPage();
    await page.getByRole('button', { name: 'Send Email' }).click();
    const send = page.getByRole('dialog', { name: 'Send Email' });
    await send.getByLabel('Email Template').selectOption('Additional Information Needed');
    await send.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('"Additional Information Needed" email queued.').waitFor();
    await h.sink.waitFor((m) => forRequest(m.subject) && /additional information/i.test(m.subject), 20_000);

    // a message posted by mistake and deleted: the thread keeps its two messages, the trail says so
    await page.getByRole('button', { name: 'New Discussion' }).click();
    const mistake = page.getByRole('dialog', { name: 'New Discussion' });
    await mistake.getByLabel('Discussion Topic').fill('Wrong request');
    await mistake.getByLabel('Message').fill('Sorry, this was meant for another request.');
    await mistake.getByRole('button', { name: 'Post Message' }).click();
    await expect.poll(() => threadRows().count()).toBe(3);
    await threadRows().filter({ hasText: 'Wrong request' }).getByRole('button', { name: /^Delete message/ }).click();
    await expect.poll(() => threadRows().count()).toBe(2);

    // description is required, in the browser as on the server
    await page.locator('input[name="file"]').setInputFiles({
      name: 'policy-summary.pdf', mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
    });
    await page.getByRole('button', { name: 'Add a Document' }).click();
    await page.getByText(MESSAGES.required).first().waitFor();
    await page.locator('input[name="description"]').fill('Policy summary for the credentialing office');
    await page.getByLabel('Attach to the approval email').check();
    await page.getByRole('button', { name: 'Add a Document' }).click();
    await documentRow('policy-summary.pdf').getByText('Attached').waitFor();

    await documentRow('policy-summary.pdf').getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Document' });
    await edit.getByLabel('Name').fill('Signed release.pdf');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText(MESSAGES.documentExists).waitFor();
    await portal.checkA11y('edit document dialog with a duplicate name');
    await portal.shot('edit-document-duplicate');
    await edit.getByLabel('Name').fill('Policy summary.pdf');
    await edit.getByRole('button', { name: 'Save' }).click();
    await documentRow('Policy summary.pdf').getByText('Attached').waitFor();
    await portal.shot('documents-admin');
  });

  it('the administrator edits a field in place: the form rules apply, Saving... then Save Successful', async () => {
    await page.getByRole('button', { name: 'Admin Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit request' });
    await form.locator('input[name="lastName"]').fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(MESSAGES.required).first().waitFor();
    await portal.checkA11y('admin in-place edit with an error');
    await form.locator('input[name="lastName"]').fill('Nguyen');
    await expect.poll(() => form.getByText(MESSAGES.required).count()).toBe(0); // the message follows the correction
    await form.locator('input[name="facilityName"]').fill('Mercy Medical Center');
    await portal.shot('admin-edit-form');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Saving\.\.\.$/).first().waitFor().catch(() => undefined); // brief on a fast machine
    await page.getByText('Save Successful').first().waitFor();
    await page.getByRole('definition').filter({ hasText: 'Mercy Medical Center' }).waitFor();
    expect(await page.getByRole('form', { name: 'Edit request' }).count()).toBe(0);
  });

  it('approves: the approval email carries the generated PDF and the flagged document', async () => {
    await page.locator('select[name="status"]').selectOption('Approved');
    await page.locator('input[name="verified"]').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText('Status: Approved').first().isVisible(), { timeout: 20_000 }).toBe(true);
    const mail = await h.sink.waitFor((m) => m.subject.includes(`${request.number} approved`), 60_000);
    expect(mail.to[0]).toBe(DEV_REQUESTER.email);
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual([`Claim History and Insurance Verification ${request.number}.pdf`, 'Policy summary.pdf'].sort());
    await expect.poll(() => documentRow(/Claim History and Insurance Verification \d+\.pdf/).count(), { timeout: 30_000 }).toBe(1);
  });

  it('the audit tab shows every step, with who did it and the recipients', async () => {
    await page.getByRole('tab', { name: 'Request Audit Details' }).click();
    const audit = page.getByRole('table', { name: 'Request Audit Details' });
    const admin = `${DEV_ADMIN.firstName} ${DEV_ADMIN.lastName}`;
    const expected: Array<[RegExp | string, string]> = [
      ['An administrator posted a message in "Requesting facility"', admin],
      ['The requester posted a message in "Requesting facility"', `${DEV_REQUESTER.firstName} ${DEV_REQUESTER.lastName}`],
      ['"Request Discussion" email sent', 'COI Automated Email System'],
      ['Sent the "Additional Information Needed" email by hand', admin],
      ['A message in "Wrong request" was deleted', admin],
      ['"Additional Information Needed" email sent', 'COI Automated Email System'],
      ['Added "policy-summary.pdf" (attached to the approval email)', admin],
      ['Renamed "policy-summary.pdf" to "Policy summary.pdf"', admin],
      ['Edited "Requesting Facility"', admin],
      ['Status changed from "Submitted" to "Approved"', admin],
      [/Generated "Claim History and Insurance Verification \d+\.pdf"/, 'COI Automated Document System'],
      ['"Credentialing Request Approved" email sent', 'COI Automated Email System'],
    ];
    await expect.poll(() => audit.getByText('"Credentialing Request Approved" email sent').count(), { timeout: 20_000 }).toBe(1);
    for (const [text, by] of expected) {
      const row = audit.getByRole('row').filter({ hasText: text }).first();
      await row.waitFor({ timeout: 5_000 }).catch(() => { throw new Error(`no audit row "${text}"`); });
      expect(await row.innerText()).toContain(by);
    }
    const approvalRow = audit.getByRole('row').filter({ hasText: '"Credentialing Request Approved" email sent' });
    expect(await approvalRow.innerText()).toContain(DEV_REQUESTER.email);
    await portal.shot('audit-tab');
    await portal.checkA11y('audit tab');
  });

  it('once approved: the thread is closed, the document actions and Edit are gone; Generate PDF regenerates the letter', async () => {
    await page.getByRole('tab', { name: 'Request Details' }).click();
    await page.getByText('its discussions are closed to new messages').waitFor();
    expect(await page.getByRole('button', { name: 'New Discussion' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Reply to/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Admin Edit' }).count()).toBe(0);
    expect(await documentsTable().getByRole('columnheader', { name: 'Action' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add a Document' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Generate PDF' }).click();
    await page.getByText('The PDF was generated.').waitFor({ timeout: 30_000 });
    await expect.poll(() => documentRow(/Claim History and Insurance Verification \d+ \(2\)\.pdf/).count()).toBe(1);
    await page.setViewportSize({ width: 768, height: 1000 });
    await portal.shot('approved-768');
    await portal.checkA11y('approved request at 768 px');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
