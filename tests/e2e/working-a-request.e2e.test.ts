/**
 * Working a request in Chromium: a requester and an administrator hold a two-message thread on a submitted
 * request; the administrator sends Additional Information Needed by hand, adds a document flagged for the approval
 * email (and renames it in the Edit dialog), edits a field in place, approves; the approval email (read from the
 * SMTP sink) carries the generated PDF and the flagged document; the audit tab shows every step; the thread is
 * closed to new messages, the document actions and Edit are gone; Generate PDF still regenerates the letter.
 * axe checks every page and dialog (tests/support/portal-browser.ts).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DocumentSchema } from '../../db/entities';
import { DEV_ADMIN, DEV_REQUESTER } from '../../db/seed-data';
import { MESSAGES } from '../../domain';
import { call, credentialingDraft, SAMPLE_PDF, upload, type Session } from '../support/api-helpers';
import { sessionOf } from '../support/e2e-fixtures';
import type { Harness } from '../support/portal-harness';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('working-a-request');
let h: Harness;
/** The current test's page: `openAs` in each test replaces it. */
let page: Page;
let asAdmin: Session;
let asRequester: Session;

beforeAll(async () => {
  h = portal.h;
  asAdmin = await sessionOf(h, DEV_ADMIN);
  asRequester = await sessionOf(h, DEV_REQUESTER);
});

type Made = { id: number; number: number };

/** A credentialing request of the requester's, made and submitted through the API, for one test alone. */
async function submittedRequest(): Promise<Made> {
  const id = await credentialingDraft(h, asRequester, { facilityName: 'Mercy Hospital' });
  const res = await call(h, asRequester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status).toBe(200);
  return { id, number: res.body.requestNumber };
}

/** Succeeds or fails the test with the API's answer. */
async function ok(step: string, answer: ReturnType<typeof call>, expected = [200, 201]) {
  const { status, body } = await answer;
  if (!expected.includes(status)) throw new Error(`${step}: ${status} ${JSON.stringify(body)}`);
  return body;
}

// The steps the tests below take in the page, taken through the API as the page does, for the tests that start after them.
/** The two-message thread: the administrator asks, the requester answers. */
async function twoMessageThread(request: Made) {
  const asked = await ok('ask', call(h, asAdmin, 'POST', '/api/v1/discussions', {
    requestId: request.id, topic: 'Requesting facility', message: 'Is the letter for Mercy Hospital or Mercy Medical Center?',
  }));
  await ok('answer', call(h, asRequester, 'POST', '/api/v1/discussions', {
    requestId: request.id, discussionId: asked.discussionId, message: 'Mercy Medical Center, please.',
  }));
}

/** Additional Information Needed sent by hand (and delivered), a message posted by mistake and deleted. */
async function sentByHandAndMistakeDeleted(request: Made) {
  await ok('send by hand', call(h, asAdmin, 'POST', '/api/v1/send-email', { requestId: request.id, templateTitle: 'Additional Information Needed' }), [200, 201, 202]);
  await h.sink.waitFor((m) => m.subject.includes(String(request.number)) && /additional information/i.test(m.subject), 60_000);
  const mistake = await ok('mistake', call(h, asAdmin, 'POST', '/api/v1/discussions', {
    requestId: request.id, topic: 'Wrong request', message: 'Sorry, this was meant for another request.',
  }));
  await ok('delete message', call(h, asAdmin, 'PATCH', `/api/v1/discussions/${mistake.id}`, { deletedAt: new Date().toISOString() }));
}

/** policy-summary.pdf added flagged for the approval email, then renamed Policy summary.pdf (as the Edit dialog sends it). */
async function flaggedDocument(request: Made) {
  const up = await upload(h, asAdmin, request.id, 'policy-summary.pdf', SAMPLE_PDF);
  expect(up.status).toBe(201);
  const description = 'Policy summary for the credentialing office';
  const added = await ok('add document', call(h, asAdmin, 'POST', '/api/v1/documents', {
    requestId: request.id, filename: 'policy-summary.pdf', description, storedName: up.body.storedName, isAttachment: true,
  }));
  await ok('rename document', call(h, asAdmin, 'PATCH', `/api/v1/documents/${added.id}`, { filename: 'Policy summary.pdf', description, isAttachment: true }));
}

/** Approved (status and Verified, as Manage Request saves them); resolves once the approval email is delivered. */
async function approved(request: Made) {
  await ok('approve', call(h, asAdmin, 'PATCH', `/api/v1/requests/${request.id}`, { status: 'Approved', verified: true }));
  return h.sink.waitFor((m) => m.subject.includes(`${request.number} approved`), 60_000);
}

/** How many letters the portal generated for the request (the approval's, then each Generate PDF's). */
const generatedLetters = (request: Made) => h.orm.em.fork().count(DocumentSchema, { requestId: request.id, idempotencyKey: { $ne: null } });

const threadRows = () => page.getByRole('table', { name: 'Recent Discussions' }).locator('tbody tr');
const documentsTable = () => page.getByRole('table', { name: 'Supporting Documents' });
const documentRow = (name: string | RegExp) => documentsTable().getByRole('row').filter({ hasText: name });
const viewPath = (request: Made) => `/requests/credentialing/${request.id}`;
/** Opens the request's page signed in as `user` (no login form). */
async function viewAs(user: { email: string }, request: Made) {
  page = await portal.openAs(user, viewPath(request));
}

describe('working a request together, in Chromium', () => {
  it('a two-message thread: the administrator asks, the requester answers', async () => {
    const request = await submittedRequest();
    await viewAs(DEV_ADMIN, request);
    await page.getByRole('button', { name: 'New Discussion' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Discussion' });
    await dialog.getByLabel('Discussion Topic').fill('Requesting facility');
    await dialog.getByLabel('Message').fill('Is the letter for Mercy Hospital or Mercy Medical Center?');
    await dialog.getByRole('button', { name: 'Post Message' }).click();
    await expect.poll(() => threadRows().count()).toBe(1);

    await viewAs(DEV_REQUESTER, request);
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
  });

  it('the administrator sends Additional Information Needed by hand and adds a document flagged for the approval email', async () => {
    const request = await submittedRequest();
    await twoMessageThread(request);
    await viewAs(DEV_ADMIN, request);
    await threadRows().filter({ hasText: 'Mercy Medical Center, please.' }).waitFor();
    expect(await threadRows().count()).toBe(2);
    await page.getByRole('button', { name: 'Send Email' }).click();
    const send = page.getByRole('dialog', { name: 'Send Email' });
    await send.getByLabel('Email Template').selectOption('Additional Information Needed');
    await send.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('"Additional Information Needed" email queued.').waitFor();
    await h.sink.waitFor((m) => m.subject.includes(String(request.number)) && /additional information/i.test(m.subject), 60_000);

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
    const request = await submittedRequest();
    await viewAs(DEV_ADMIN, request);
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
    // Saving... is brief on a fast machine and may be gone before it is looked for: wait for it or what follows it
    // (waiting for it alone cost the whole locator timeout whenever the save was quicker than the look).
    await page.getByText(/^Saving\.\.\.$/).or(page.getByText('Save Successful')).first().waitFor();
    await page.getByText('Save Successful').first().waitFor();
    await page.getByRole('definition').filter({ hasText: 'Mercy Medical Center' }).waitFor();
    expect(await page.getByRole('form', { name: 'Edit request' }).count()).toBe(0);
  });

  it('approves: the approval email carries the generated PDF and the flagged document', async () => {
    const request = await submittedRequest();
    await flaggedDocument(request);
    await viewAs(DEV_ADMIN, request);
    await documentRow('Policy summary.pdf').getByText('Attached').waitFor();
    await page.locator('select[name="status"]').selectOption('Approved');
    await page.locator('input[name="verified"]').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText('Status: Approved').first().isVisible(), { timeout: 60_000 }).toBe(true);
    const mail = await h.sink.waitFor((m) => m.subject.includes(`${request.number} approved`), 60_000);
    expect(mail.to[0]).toBe(DEV_REQUESTER.email);
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual([`Claim History and Insurance Verification ${request.number}.pdf`, 'Policy summary.pdf'].sort());
    await expect.poll(() => documentRow(/Claim History and Insurance Verification \d+\.pdf/).count(), { timeout: 30_000 }).toBe(1);
  });

  it('the audit tab shows every step, with who did it and the recipients', async () => {
    const request = await submittedRequest();
    await twoMessageThread(request);
    await sentByHandAndMistakeDeleted(request);
    await flaggedDocument(request);
    await ok('edit in place', call(h, asAdmin, 'PATCH', `/api/v1/requests/${request.id}`, { facilityName: 'Mercy Medical Center' }));
    await approved(request);
    await viewAs(DEV_ADMIN, request);
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
    await expect.poll(() => audit.getByText('"Credentialing Request Approved" email sent').count(), { timeout: 60_000 }).toBe(1);
    for (const [text, by] of expected) {
      const row = audit.getByRole('row').filter({ hasText: text }).first();
      await row.waitFor().catch(() => { throw new Error(`no audit row "${text}"`); });
      expect(await row.innerText()).toContain(by);
    }
    const approvalRow = audit.getByRole('row').filter({ hasText: '"Credentialing Request Approved" email sent' });
    expect(await approvalRow.innerText()).toContain(DEV_REQUESTER.email);
    await portal.shot('audit-tab');
    await portal.checkA11y('audit tab');
  });

  it('once approved: the thread is closed, the document actions and Edit are gone; Generate PDF regenerates the letter', async () => {
    const request = await submittedRequest();
    await twoMessageThread(request);
    await approved(request);
    await expect.poll(() => generatedLetters(request), { timeout: 30_000 }).toBe(1);
    await viewAs(DEV_ADMIN, request);
    await documentRow(/Claim History and Insurance Verification \d+\.pdf/).waitFor();
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
