/**
 * Discussions in Chromium: a requester and an administrator hold a two-message thread on a submitted request;
 * the requester sees it above the view page; the administrator's reply emails the requester; once the request is
 * closed the thread takes no new messages. axe checks every page and the dialogs (tests/support/portal-browser.ts).
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEV_ADMIN, DEV_REQUESTER } from '../../db/seed-data';
import { RequestSchema } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { call, credentialingDraft, loginRequester } from '../support/api-helpers';
import type { Harness } from '../support/portal-harness';
import { usePortalBrowser } from '../support/portal-browser';
import { processed, replyAbove, replyAddressOf, replyTransport, startReplyListener } from '../support/inbound-mail-helpers';

const portal = usePortalBrowser('discussions');
let h: Harness;
let page: Page;
beforeEach(() => { h = portal.h; page = portal.page; });

/** A credentialing request of the seeded requester, submitted (through the API). */
async function submittedRequest(): Promise<{ id: number; requestNumber: number }> {
  const requester = await loginRequester(h);
  const id = await credentialingDraft(h, requester);
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status).toBe(200);
  return { id, requestNumber: res.body.requestNumber };
}

const threadRows = () => page.getByRole('table', { name: 'Recent Discussions' }).locator('tbody tr');

describe('discussions in Chromium', () => {
  it('the administrator opens a thread; the requester replies; the thread closes with the request', async () => {
    const request = await submittedRequest();
    page = await portal.openAs(DEV_ADMIN, `/requests/credentialing/${request.id}`);
    await page.getByRole('heading', { name: 'Recent Discussions' }).waitFor();
    await page.getByText(MESSAGES.emptyDiscussions).waitFor();
    await page.getByRole('button', { name: 'New Discussion' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Discussion' });
    await dialog.getByRole('button', { name: 'Post Message' }).click();
    expect(await dialog.getByText(MESSAGES.required).count()).toBe(2); // topic and message, the spec's words
    await dialog.getByText(MESSAGES.required).first().waitFor();
    await dialog.getByLabel('Discussion Topic').fill('Dates of coverage');
    await dialog.getByLabel('Message').fill('Please confirm the end date.');
    await dialog.getByText('772 characters remaining').waitFor();
    await portal.checkA11y('new discussion dialog');
    await portal.shot('new-discussion');
    await dialog.getByRole('button', { name: 'Post Message' }).click();
    await expect.poll(() => threadRows().count()).toBe(1);
    await h.sink.waitFor((m) => m.subject === `Request ${request.requestNumber}: new message` && m.to.includes(DEV_REQUESTER.email), 60_000);
    await portal.shot('admin-thread');

    // Send Email by hand: a bad address is named; then it goes to the requester and the typed address
    await page.getByRole('button', { name: 'Send Email' }).click();
    const send = page.getByRole('dialog', { name: 'Send Email' });
    await send.getByLabel('Email Template').selectOption('Additional Information Needed');
    await send.getByLabel('Additional Recipients').fill('helper@example.org; nope');
    await send.getByRole('button', { name: 'Send', exact: true }).click();
    await send.getByText('"nope" is not a valid email address').waitFor();
    await portal.checkA11y('send email dialog');
    await send.getByLabel('Additional Recipients').fill('helper@example.org');
    await send.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('"Additional Information Needed" email queued.').waitFor();
    // Each address gets a message of its own (each with its own reply address), the requester first.
    await h.sink.waitFor((m) => m.subject.includes(String(request.requestNumber)) && m.to.includes('helper@example.org'), 60_000);
    const sent = h.sink.messages().filter((m) => m.subject.includes(String(request.requestNumber)) && /additional information/i.test(m.subject));
    expect(sent.map((m) => m.to)).toEqual([[DEV_REQUESTER.email], ['helper@example.org']]);
    await portal.signOut();

    page = await portal.openAs(DEV_REQUESTER, `/requests/credentialing/${request.id}`);
    await page.getByRole('button', { name: 'Reply to Dates of coverage' }).click();
    const reply = page.getByRole('dialog', { name: 'Reply' });
    await reply.getByLabel('Message').fill('It ends on June 30.');
    await reply.getByRole('button', { name: 'Post Message' }).click();
    await expect.poll(() => threadRows().count()).toBe(2);
    await expect(page.getByRole('button', { name: /^Delete message/ }).count()).resolves.toBe(0);
    await h.sink.waitFor((m) => m.subject === `Request ${request.requestNumber}: new message` && m.to.includes('riskmanagement@coi-portal.local'), 60_000);
    await portal.shot('requester-thread');

    await h.orm.em.fork().nativeUpdate(RequestSchema, { id: request.id }, { status: 'Closed' });
    await page.reload();
    await page.getByText('its discussions are closed to new messages').waitFor();
    expect(await page.getByRole('button', { name: 'New Discussion' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Reply to/ }).count()).toBe(0);
    await portal.signOut();
  });

  it('a reply by email shows in the discussion marked "by email"', async () => {
    const request = await submittedRequest();
    const mail = await h.sink.waitFor((m) => m.to.includes(DEV_REQUESTER.email) && m.subject.includes(String(request.requestNumber)), 30_000);
    const listener = await startReplyListener(h);
    const transport = replyTransport(listener);
    try {
      const messageId = `<e2e-reply-${Date.now()}@phone.example>`;
      await transport.sendMail({
        from: DEV_REQUESTER.email, to: await replyAddressOf(h, mail, request.requestNumber), subject: `Re: ${mail.subject}`, messageId,
        text: replyAbove('Here is the signed release.', mail),
      });
      expect(await processed(h, messageId)).toBe('posted');
    } finally {
      transport.close();
      await listener.close();
    }
    page = await portal.openAs(DEV_ADMIN, `/requests/credentialing/${request.id}`);
    await page.getByRole('heading', { name: 'Recent Discussions' }).waitFor();
    await expect.poll(() => threadRows().count()).toBe(1);
    const row = threadRows().first();
    await row.getByText('by email', { exact: true }).waitFor();
    expect(await row.getByText('Here is the signed release.').count()).toBe(1);
    expect(await row.getByText('wrote:').count()).toBe(0);
    await portal.checkA11y('discussion with a reply by email');
    await portal.shot('reply-by-email');
    await page.setViewportSize({ width: 768, height: 1000 });
    await row.getByText('by email', { exact: true }).waitFor();
    await portal.checkA11y('discussion with a reply by email, 768 px');
    await portal.shot('reply-by-email-768');
    await page.setViewportSize({ width: 1280, height: 900 });
    await portal.signOut();
  });
});
