/**
 * Replies by email as an attacker and an unlucky sender meet them, through the real listener and worker: a reply
 * address speaks only for the address it was sent to, the author shown is the account the portal matched, a forged
 * address is refused before anything is stored, markup that cannot be read ends as "unreadable" (answered once) without
 * holding the worker, an emailed file is its sender's upload, an answer joins the thread it answers, the same
 * Message-ID in another case is one message, and one email adds a bounded number of documents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscussionSchema, DocumentSchema, InboundMessageSchema, RequestActivitySchema, UserSchema } from '../../db/entities';
import { createReplyTextReader } from '../../mail-in/processing/reply-text-reader';
import { INBOUND_ATTACHMENTS_MAX } from '../../domain';
import type { Received } from '../../devtools/smtp-sink';
import type { InboundSmtpListener } from '../../mail-in/smtp-listener';
import {
  SAMPLE_PDF, call, createExternalUser, credentialingDraft, loginAdmin, loginRequester, sessionFor, type Session,
} from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { processed, replyAbove, replyAddressOf, replyTransport, startReplyListener } from '../support/inbound-mail-helpers';
import { startHarness, type Harness } from '../support/portal-harness';
import { DEV_REQUESTER_EMAIL } from './fixtures-constants';

const OFFICE = 'riskmanagement@coi-portal.local';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f20000000049454e44ae426082', 'hex');

let h: Harness;
let requester: Session;
let admin: Session;
let listener: InboundSmtpListener;
let send: ReturnType<typeof replyTransport>;
let seq = 0;

beforeAll(async () => {
  h = await startHarness();
  [requester, admin] = await Promise.all([loginRequester(h), loginAdmin(h)]);
  listener = await startReplyListener(h);
  send = replyTransport(listener);
});
afterAll(async () => {
  send?.close();
  await listener?.close();
  await h?.stop();
});

const newMessageId = () => `<trust-${Date.now()}-${++seq}@phone.example>`;
const byEmailRows = (requestId: number) => h.orm.em.fork().find(DiscussionSchema, { requestId, byEmail: true }, { orderBy: { id: 'asc' } });
const answersTo = (address: string) => h.sink.messages().filter((m) => m.to.includes(address) && m.subject.startsWith('Not posted'));
const inboundRowOf = (messageId: string) => h.orm.em.fork().findOne(InboundMessageSchema, { messageId: messageId.slice(1, -1) });

/** A submitted request of `session`'s (with `fields`), and the status email each of `recipients` got about it. */
async function submitted(session: Session = requester, fields: Record<string, unknown> = {}, recipients: string[] = [session.user.email]) {
  const id = await credentialingDraft(h, session, fields);
  const res = await call(h, session, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const number = res.body.requestNumber as number;
  const mails: Record<string, { mail: Received; address: string }> = {};
  for (const recipient of recipients) {
    const mail = await h.sink.waitFor((m) => m.to.includes(recipient) && m.subject.includes(String(number)), 30_000);
    mails[recipient] = { mail, address: await replyAddressOf(h, mail, number) };
  }
  return { id, number, mails };
}

/** The "new message" email the portal sent `to` about the message `discussionRowId`. */
const discussionMail = (number: number, to: string, discussionRowId: number) => h.sink.waitFor(
  (m) => m.subject === `Request ${number}: new message` && m.to.includes(to) && (m.messageId ?? '').includes(`discussion-${discussionRowId}`), 30_000);

describe('who a reply by email is from', () => {
  it('is the account the portal matched, never the name the sender typed', async () => {
    const colleague = `colleague.${Date.now()}@hospital.example`;
    const { id, mails } = await submitted(requester, { recipientEmail: colleague }, [DEV_REQUESTER_EMAIL, colleague]);
    const fromRequester = { from: `"Risk Management" <${DEV_REQUESTER_EMAIL}>`, to: mails[DEV_REQUESTER_EMAIL].address, subject: 'Re: release', messageId: newMessageId(), text: 'Sent by the requester.' };
    const fromColleague = { from: `"Risk Management" <${colleague}>`, to: mails[colleague].address, subject: 'Re: release', messageId: newMessageId(), text: 'Sent by the colleague.' };
    await send.sendMail(fromRequester);
    await send.sendMail(fromColleague);
    expect(await processed(h, fromRequester.messageId)).toBe('posted');
    expect(await processed(h, fromColleague.messageId)).toBe('posted');
    const account = await h.orm.em.fork().findOneOrFail(UserSchema, { id: requester.user.id });
    // The two were processed side by side: in either order.
    expect((await byEmailRows(id)).map((r) => [r.message, r.sender, r.fromAdmin]).sort()).toEqual([
      ['Sent by the colleague.', colleague, false],
      ['Sent by the requester.', `${account.firstName} ${account.lastName}`, false],
    ]);
    const audit = await eventually(async () => {
      const rows = await h.orm.em.fork().find(RequestActivitySchema, { requestId: id, activityType: 'Discussion' });
      return rows.length === 2 ? rows : undefined;
    });
    expect(audit.map((r) => r.performedBy).sort()).toEqual([`${account.firstName} ${account.lastName}`, colleague].sort());
  }, 120_000);

  it('a reply address speaks only for the address it was sent to; the office\'s only for the office, as Risk Management', async () => {
    const colleague = `credentialing.${Date.now()}@hospital.example`;
    const { id, number, mails } = await submitted(requester, { recipientEmail: colleague }, [DEV_REQUESTER_EMAIL, colleague]);
    // The colleague (a participant) answers through the requester's reply address: refused, and told why, once.
    const borrowed = { from: colleague, to: mails[DEV_REQUESTER_EMAIL].address, subject: 'Re: status', messageId: newMessageId(), text: 'Posting as the requester?' };
    await send.sendMail(borrowed);
    expect(await processed(h, borrowed.messageId)).toBe('refused');
    expect(await inboundRowOf(borrowed.messageId)).toMatchObject({ outcome: 'unknown-sender' });
    const answer = await eventually(async () => answersTo(colleague)[0]);
    expect(answer.text).toContain('replies are accepted only from the address the portal wrote to');

    // The office mailbox hears of a requester's message, with a reply address issued to the office.
    const posted = await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Dates', message: 'Is July fine?' });
    expect(posted.status).toBe(201);
    const officeMail = await discussionMail(number, OFFICE, posted.body.id);
    const officeAddress = await replyAddressOf(h, officeMail, number);
    // A participant cannot speak through it…
    const asOffice = { from: colleague, to: officeAddress, subject: `Re: ${officeMail.subject}`, messageId: newMessageId(), inReplyTo: officeMail.messageId ?? undefined, text: 'Approved!' };
    await send.sendMail(asOffice);
    expect(await processed(h, asOffice.messageId)).toBe('refused');
    expect(await inboundRowOf(asOffice.messageId)).toMatchObject({ outcome: 'unknown-sender' });
    // …an administrator answering the office mailbox from their own address does, as the office.
    const fromAdmin = { from: `"Anyone At All" <${admin.user.email}>`, to: officeAddress, subject: `Re: ${officeMail.subject}`, messageId: newMessageId(), inReplyTo: officeMail.messageId ?? undefined, text: 'July is fine.' };
    await send.sendMail(fromAdmin);
    expect(await processed(h, fromAdmin.messageId)).toBe('posted');
    expect((await byEmailRows(id)).map((r) => [r.message, r.sender, r.fromAdmin])).toEqual([['July is fine.', 'Risk Management', true]]);
  }, 120_000);

  it('a deactivated account posts nothing by email, and is told so once', async () => {
    const email = `leaving.${Date.now()}@clinic.example`;
    await createExternalUser(h, email, 'Leaving-Pass1');
    const leaving = await sessionFor(h, email);
    const { id, mails } = await submitted(leaving);
    await h.orm.em.fork().nativeUpdate(UserSchema, { id: leaving.user.id }, { deletedAt: new Date() });
    const reply = { from: email, to: mails[email].address, subject: 'Re: status', messageId: newMessageId(), text: 'Still here.' };
    await send.sendMail(reply);
    await send.sendMail({ ...reply, messageId: newMessageId() });
    expect(await processed(h, reply.messageId)).toBe('refused');
    expect(await inboundRowOf(reply.messageId)).toMatchObject({ outcome: 'inactive' });
    expect(await byEmailRows(id)).toHaveLength(0);
    const answer = await eventually(async () => answersTo(email)[0]);
    expect(answer.text).toContain('your account on the portal is deactivated');
    expect(answersTo(email)).toHaveLength(1);
  }, 120_000);
});

describe('what is refused before anything is kept', () => {
  it('a forged reply address is refused at RCPT: nothing stored, nobody answered', async () => {
    const { mails } = await submitted();
    const genuine = mails[DEV_REQUESTER_EMAIL].address;
    const forged = genuine.replace(/[a-z2-7]{6}@/, 'aaaaaa@');
    const victim = `victim.${Date.now()}@elsewhere.example`;
    const messageId = newMessageId();
    const refused = await send.sendMail({ from: victim, to: forged, subject: 'Buy now', messageId, text: 'spam' })
      .then(() => null, (error: Error & { responseCode?: number }) => error);
    expect(refused?.responseCode).toBe(550);
    // A genuine address from the same connection is still taken: only the forged recipient was refused.
    const fine = { from: DEV_REQUESTER_EMAIL, to: genuine, subject: 'Re: x', messageId: newMessageId(), text: 'Genuine.' };
    await send.sendMail(fine);
    expect(await processed(h, fine.messageId)).toBe('posted');
    expect(await inboundRowOf(messageId)).toBeNull();
    expect(h.sink.messages().filter((m) => m.to.includes(victim))).toHaveLength(0);
  }, 120_000);

  it('the same Message-ID with its domain in capitals is one message, posted once', async () => {
    const { id, mails } = await submitted();
    const local = `case-${Date.now()}`;
    const reply = { from: DEV_REQUESTER_EMAIL, to: mails[DEV_REQUESTER_EMAIL].address, subject: 'Re: x', text: 'Once, whatever the case.' };
    await send.sendMail({ ...reply, messageId: `<${local}@Phone.Example>` });
    expect(await processed(h, `<${local}@phone.example>`)).toBe('posted');
    await send.sendMail({ ...reply, messageId: `<${local}@PHONE.EXAMPLE>` });
    await send.sendMail({ ...reply, messageId: `<${local}@phone.example>` });
    expect(await processed(h, `<${local}@phone.example>`)).toBe('posted');
    expect(await h.orm.em.fork().count(InboundMessageSchema, { messageId: { $ilike: `${local}@%` } })).toBe(1);
    expect(await byEmailRows(id)).toHaveLength(1);
  }, 120_000);
});

describe('what a reply by email adds', () => {
  it('markup nested past the bounds ends as unreadable, answered once; the worker goes on with the next reply', async () => {
    const colleague = `nested.${Date.now()}@hospital.example`;
    const { id, mails } = await submitted(requester, { recipientEmail: colleague }, [colleague]);
    const { address } = mails[colleague];
    const nested = { from: colleague, to: address, subject: 'Re: x', messageId: newMessageId(), html: `${'<b>'.repeat(20_000)}Hello${'</b>'.repeat(20_000)}` };
    await send.sendMail(nested);
    expect(await processed(h, nested.messageId)).toBe('refused');
    expect(await inboundRowOf(nested.messageId)).toMatchObject({ state: 'refused', outcome: 'unreadable' });
    const answer = await eventually(async () => answersTo(colleague)[0]);
    expect(answer.text).toContain('could not read its text. Please send your answer again as plain text');
    // Decided once: no attempt of its processing failed (each would have been retried without end).
    const row = (await inboundRowOf(nested.messageId))!;
    const { events } = await h.temporal.workflow.getHandle(`inbound-${row.dedupKey}`).fetchHistory();
    expect((events ?? []).filter((e) => e.activityTaskFailedEventAttributes)).toEqual([]);
    const next = { from: colleague, to: address, subject: 'Re: x', messageId: newMessageId(), html: '<div><p>Plain <b>enough</b>.</p></div>' };
    await send.sendMail(next);
    expect(await processed(h, next.messageId)).toBe('posted');
    expect((await byEmailRows(id)).map((r) => r.message)).toEqual(['Plain enough.']);
  }, 120_000);

  it('an emailed file is its sender\'s upload: theirs to remove, and attached to the approval email when flagged', async () => {
    const { id, number, mails } = await submitted();
    const { mail, address } = mails[DEV_REQUESTER_EMAIL];
    const messageId = newMessageId();
    await send.sendMail({
      from: DEV_REQUESTER_EMAIL, to: address, subject: `Re: ${mail.subject}`, messageId, text: replyAbove('The signed release.', mail),
      attachments: [{ filename: 'signed-release.pdf', content: SAMPLE_PDF, contentType: 'application/pdf' }, { filename: 'scan.png', content: PNG }],
    });
    expect(await processed(h, messageId)).toBe('posted');
    const documents = (await call(h, requester, 'GET', `/api/v1/documents?requestId=${id}`)).body;
    const list = (Array.isArray(documents) ? documents : documents.data) as Array<{ id: number; name: string; origin: string }>;
    const release = list.find((d) => d.name === 'signed-release.pdf')!;
    const scan = list.find((d) => d.name === 'scan.png')!;
    expect([release.origin, scan.origin]).toEqual(['requester', 'requester']);

    // The administrator flags the release for the approval email; the requester removes the scan… once the request is
    // theirs to edit again.
    expect((await call(h, admin, 'PATCH', `/api/v1/documents/${release.id}`, { isAttachment: true })).status).toBe(200);
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Pending Additional Information' })).status).toBe(200);
    const removed = await call(h, requester, 'DELETE', `/api/v1/documents/${scan.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' })).status).toBe(200);
    const approved = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Approved', verified: true });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const approval = await h.sink.waitFor((m) => m.subject.includes(String(number)) && m.attachments.length > 0, 60_000);
    expect(approval.attachments.map((a) => a.filename)).toContain('signed-release.pdf');
    expect(approval.attachments).toHaveLength(2);
  }, 180_000);

  it('an answer to a message\'s email joins that message\'s thread', async () => {
    const { id, number } = await submitted();
    const first = await call(h, admin, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Lease dates', message: 'Which dates?' });
    const second = await call(h, admin, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Holder', message: 'Which holder?' });
    expect([first.status, second.status]).toEqual([201, 201]);
    for (const [asked, text] of [[second, 'Mercy Hospital.'], [first, 'July to June.'], [second, 'And its parent.']] as const) {
      const notice = await discussionMail(number, DEV_REQUESTER_EMAIL, asked.body.id);
      const messageId = newMessageId();
      await send.sendMail({
        from: DEV_REQUESTER_EMAIL, to: await replyAddressOf(h, notice, number), subject: `Re: ${notice.subject}`, messageId,
        inReplyTo: notice.messageId ?? undefined, references: [`<request-${number}@coi-portal.local>`, notice.messageId!], text: replyAbove(text, notice),
      });
      expect(await processed(h, messageId)).toBe('posted');
    }
    const rows = await byEmailRows(id);
    expect(rows.map((r) => [r.message, r.discussionId, r.topic])).toEqual([
      ['Mercy Hospital.', second.body.discussionId, 'Holder'],
      ['July to June.', first.body.discussionId, 'Lease dates'],
      ['And its parent.', second.body.discussionId, 'Holder'],
    ]);
  }, 180_000);

  it(`adds at most ${INBOUND_ATTACHMENTS_MAX} attachments of one email and says how many it left out`, async () => {
    const { id, mails } = await submitted();
    const messageId = newMessageId();
    const count = INBOUND_ATTACHMENTS_MAX + 25;
    await send.sendMail({
      from: DEV_REQUESTER_EMAIL, to: mails[DEV_REQUESTER_EMAIL].address, subject: 'Re: scans', messageId, text: 'All the scans.',
      attachments: Array.from({ length: count }, (_, n) => ({ filename: 'scan.png', content: PNG, cid: undefined, contentDisposition: 'attachment' as const, headers: { 'X-N': String(n) } })),
    });
    expect(await processed(h, messageId)).toBe('posted');
    const documents = await h.orm.em.fork().find(DocumentSchema, { requestId: id, description: 'Attached to a reply by email' }, { orderBy: { id: 'asc' } });
    expect(documents.map((d) => d.name)).toEqual(['scan.png', ...Array.from({ length: INBOUND_ATTACHMENTS_MAX - 1 }, (_, n) => `scan (${n + 2}).png`)]);
    const [row] = await byEmailRows(id);
    expect(row.message).toBe(`All the scans.\n\n25 more attachments were not added: a reply by email adds at most ${INBOUND_ATTACHMENTS_MAX}.`);
  }, 120_000);
});

describe('reading a reply\'s text', () => {
  it('happens off the worker\'s event loop, within a time bound, and the reader goes on after a message that hit it', async () => {
    const reader = createReplyTextReader({ timeoutMs: 3_000 });
    try {
      // Nested tables up to the 2,000,000 characters read take html-to-text half a minute on a 2-core machine: far
      // past the bound on any machine.
      const slow = reader.read({ html: '<table><tr><td>'.repeat(140_000) });
      let turns = 0;
      let settled = false;
      void slow.finally(() => { settled = true; });
      // The event loop keeps turning while the thread works: timers, I/O and other activities are not held.
      while (!settled) {
        await new Promise((resolve) => setImmediate(resolve));
        turns++;
      }
      expect(await slow).toEqual({ unreadable: expect.stringMatching(/^AbortError/) });
      expect(turns).toBeGreaterThan(10);
      expect(await reader.read({ html: '<p>Next <i>one</i>.</p>' })).toEqual({ text: 'Next one.' });
    } finally {
      await reader.close();
    }
  }, 60_000);
});
