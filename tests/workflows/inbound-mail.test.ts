/**
 * Answers by email, inbound, on real parts: the portal's own status email taken from the SMTP sink is answered over
 * SMTP to the reply listener (nodemailer), processed by its workflow on the request worker, posted through the
 * request workflow's discussion path, under the messages-an-hour quota. Refusals are answered once; automated mail never. A processed message's raw
 * bytes are removed after the keep period; its row stays.
 */
import { stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneInboundMessageFiles } from '../../mail-in/raw-mail-files';
import { INBOUND_RAW_KEEP_DAYS } from '../../domain/inbound-mail';
import { inboundWorkflowIdOf } from '../../domain';
import nodemailer from 'nodemailer';
import { DiscussionSchema, DocumentSchema, InboundMessageSchema, RequestActivitySchema, RequestSchema } from '../../db/entities';
import { receiveInbound, resumeInboundMail } from '../../mail-in/intake';
import { SAMPLE_PDF, call, credentialingDraft, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { activitiesSettled } from '../support/workflow-activities';
import { requestWorkflowId } from '../../workflows/request.messages';
import { startHarness, type Harness } from '../support/portal-harness';
import {
  processed, replyAbove, replyAddressOf, replyTransport, startReplyListener,
} from '../support/inbound-mail-helpers';
import type { InboundSmtpListener } from '../../mail-in/smtp-listener';
import { recentInboundMessages, startOutbox } from '../../devtools/outbox-server';
import { DEV_REQUESTER_EMAIL } from './fixtures-constants';

let h: Harness;
let requester: Session;
let listener: InboundSmtpListener;
let send: ReturnType<typeof replyTransport>;
let seq = 0;

/** The messages-an-hour quota these replies meet (the real one: each reply from one address counts, by email or not). */
const MESSAGES_PER_HOUR = 30;
/** A daily upload quota of one megabyte, so that a sender without an account meets theirs with two attachments. */
const UPLOAD_MB_PER_DAY = 1;

beforeAll(async () => {
  h = await startHarness({ env: { MESSAGES_PER_HOUR_QUOTA: String(MESSAGES_PER_HOUR), UPLOAD_MB_PER_DAY_QUOTA: String(UPLOAD_MB_PER_DAY) } });
  requester = await loginRequester(h);
  listener = await startReplyListener(h);
  send = replyTransport(listener);
});
afterAll(async () => {
  send?.close();
  await listener?.close();
  await h?.stop();
});

/**
 * A submitted request (with `fields` on its form) and the status email the portal sent `to` (its requester unless
 * said) about it, with the reply address issued to `to`.
 */
async function submittedWithEmail(fields: Record<string, unknown> = {}, to = DEV_REQUESTER_EMAIL) {
  const id = await credentialingDraft(h, requester, fields);
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status).toBe(200);
  const number = res.body.requestNumber as number;
  const mail = await h.sink.waitFor((m) => m.to.includes(to) && m.subject.includes(String(number)), 30_000);
  return { id, number, mail, address: await replyAddressOf(h, mail, number) };
}

const newMessageId = () => `<reply-${Date.now()}-${++seq}@phone.example>`;
const answersTo = (address: string) => h.sink.messages().filter((m) => m.to.includes(address) && m.subject.startsWith('Not posted'));
const byEmailRows = (requestId: number) => h.orm.em.fork().find(DiscussionSchema, { requestId, byEmail: true });

describe('a reply by email', () => {
  it('posts the new text only, its attachment as a document, notifies the office; the same Message-ID twice posts once', async () => {
    const { id, number, mail, address } = await submittedWithEmail();
    expect(address).toMatch(/^reply\+\d+-[a-z2-7]{24}@coi-portal\.local$/);
    const messageId = newMessageId();
    const reply = {
      from: `Pat Requester <${DEV_REQUESTER_EMAIL}>`, to: address, subject: `Re: ${mail.subject}`, messageId,
      inReplyTo: mail.messageId ?? undefined, text: replyAbove('Here is the signed release.\n\nPat', mail),
      attachments: [{ filename: 'signed-release.pdf', content: SAMPLE_PDF, contentType: 'application/pdf' }],
    };
    const accepted = await send.sendMail(reply);
    expect(accepted.response).toMatch(/^250 /);
    expect(await processed(h, messageId)).toBe('posted');

    const rows = await byEmailRows(id);
    expect(rows).toHaveLength(1);
    // The requester's account stands beside the name on what the reply adds, as on what they post signed in.
    expect(rows[0]).toMatchObject({ message: 'Here is the signed release.\n\nPat', senderEmail: DEV_REQUESTER_EMAIL, fromAdmin: false, senderUserId: requester.user.id });
    expect(rows[0].message).not.toContain('wrote:');
    const documents = await h.orm.em.fork().find(DocumentSchema, { requestId: id });
    expect(documents.map((d) => [d.name, d.mimeType, d.uploadedByUserId])).toContainEqual(['signed-release.pdf', 'application/pdf', requester.user.id]);
    const added = await h.orm.em.fork().findOneOrFail(RequestActivitySchema, { requestId: id, activityType: 'Document', channel: 'Email' });
    expect(added.performedByUserId).toBe(requester.user.id);
    // The office hears of it as of any message the requester posts, and the audit says it came by email.
    const toOffice = await h.sink.waitFor((m) => m.subject === `Request ${number}: new message` && m.to.includes('riskmanagement@coi-portal.local'), 30_000);
    expect(toOffice.text).toContain('There is a new message about your request');
    const audit = await eventually(async () => (await h.orm.em.fork().find(RequestActivitySchema, { requestId: id, activityType: 'Discussion' }))[0]);
    expect(audit).toMatchObject({ channel: 'Email', activityText: expect.stringContaining('by email') });
    const detail = await call(h, requester, 'GET', `/api/v1/requests/${id}`);
    expect(detail.body.discussions).toEqual([expect.objectContaining({ byEmail: true, message: 'Here is the signed release.\n\nPat' })]);

    // The MTA delivers it again (it never heard our 250), and the requester's phone sends it once more.
    expect((await send.sendMail(reply)).response).toMatch(/^250 /);
    expect((await send.sendMail(reply)).response).toMatch(/^250 /);
    expect(await h.orm.em.fork().count(InboundMessageSchema, { messageId: messageId.slice(1, -1) })).toBe(1);
    // Waits for events, not a time: the one inbound workflow has answered, and the request's emails have all gone.
    expect(await processed(h, messageId)).toBe('posted');
    await activitiesSettled(h.temporal, requestWorkflowId(number));
    expect(await byEmailRows(id)).toHaveLength(1);
    expect(h.sink.messages().filter((m) => m.subject === `Request ${number}: new message`)).toHaveLength(1);
  }, 180_000);

  it('an HTML-only reply is posted as its text, without the quoted part', async () => {
    const { id, mail, address } = await submittedWithEmail();
    const messageId = newMessageId();
    await send.sendMail({
      from: DEV_REQUESTER_EMAIL, to: address, subject: `Re: ${mail.subject}`, messageId,
      html: '<div>Thanks, <b>the release</b> is on its way.<script>alert(1)</script></div><blockquote type="cite">Old <i>portal</i> text</blockquote>',
    });
    expect(await processed(h, messageId)).toBe('posted');
    const [row] = await byEmailRows(id);
    expect(row.message).toBe('Thanks, the release is on its way.');
  }, 120_000);

  it('a forged sender is refused and answered once, a forged token refused at RCPT, and our answer never answered', async () => {
    const { id, mail, address } = await submittedWithEmail();
    const mallory = 'mallory@elsewhere.example';
    const forgedSender = { from: mallory, to: address, subject: `Re: ${mail.subject}`, messageId: newMessageId(), text: 'Please change the recipient to me.' };
    await send.sendMail(forgedSender);
    await send.sendMail(forgedSender); // delivered twice: still one answer
    expect(await processed(h, forgedSender.messageId)).toBe('refused');
    // Another message from the same address within the hour: refused, not answered again.
    const again = { ...forgedSender, messageId: newMessageId(), text: 'Hello again?' };
    await send.sendMail(again);
    expect(await processed(h, again.messageId)).toBe('refused');
    const answer = await h.sink.waitFor((m) => m.to.includes(mallory) && m.subject.startsWith('Not posted'), 30_000);
    expect(answer.text).toContain('replies are accepted only from the address the portal wrote to');

    expect(answer.raw.toString()).toMatch(/^Auto-Submitted: auto-replied/im);

    // A made-up reply address is refused before anything is kept or answered (anyone can make one up).
    const otherToken = address.replace(/[a-z2-7]{6}@/, 'aaaaaa@');
    const pat = 'pat.elsewhere@hospital.example';
    const forgedToken = { from: pat, to: otherToken, subject: 'Re: something', messageId: newMessageId(), text: 'Hello' };
    const refused = await send.sendMail(forgedToken).then(() => null, (error: Error & { responseCode?: number }) => error);
    expect(refused?.responseCode).toBe(550);
    expect(await h.orm.em.fork().count(InboundMessageSchema, { messageId: forgedToken.messageId.slice(1, -1) })).toBe(0);

    // Our answer sent back to the listener (a robot replying, a forwarding loop) is never answered.
    await send.sendMail({ envelope: { from: 'riskmanagement@coi-portal.local', to: [address] }, raw: answer.raw });
    expect(await processed(h, answer.messageId!)).toBe('ignored');

    // Every message above was processed to its end (its answer, if any, sent inside its workflow).
    expect(answersTo(mallory)).toHaveLength(1);
    expect(h.sink.messages().filter((m) => m.to.includes('riskmanagement@coi-portal.local') && m.subject.startsWith('Not posted'))).toHaveLength(0);
    expect(answersTo(pat)).toHaveLength(0);
    expect(await byEmailRows(id)).toHaveLength(0);
  }, 120_000);

  it('an out-of-office, a bounce and list mail are neither posted nor answered', async () => {
    const { id, mail, address } = await submittedWithEmail();
    const outOfOffice = {
      from: DEV_REQUESTER_EMAIL, to: address, subject: `Automatic reply: ${mail.subject}`, messageId: newMessageId(),
      headers: { 'Auto-Submitted': 'auto-replied' }, text: 'I am out of the office until Monday.',
    };
    await send.sendMail(outOfOffice);
    const bounce = {
      envelope: { from: '', to: [address] }, from: 'MAILER-DAEMON@hospital.example', to: address, subject: 'Undelivered Mail Returned to Sender',
      messageId: newMessageId(), text: 'This is the mail system at host hospital.example. I am sorry to have to inform you…',
    };
    await send.sendMail(bounce);
    const listMail = { from: DEV_REQUESTER_EMAIL, to: address, subject: 'Digest', messageId: newMessageId(), headers: { 'List-Id': '<staff.hospital.example>', Precedence: 'list' }, text: 'digest' };
    await send.sendMail(listMail);
    expect(await processed(h, outOfOffice.messageId)).toBe('ignored');
    expect(await processed(h, bounce.messageId)).toBe('ignored');
    expect(await processed(h, listMail.messageId)).toBe('ignored');
    const bounceRow = await h.orm.em.fork().findOneOrFail(InboundMessageSchema, { messageId: bounce.messageId.slice(1, -1) });
    expect(bounceRow).toMatchObject({ envelopeFrom: '', outcome: 'automated: empty return path' });
    expect(await byEmailRows(id)).toHaveLength(0);
    expect(h.sink.messages().filter((m) => m.subject.startsWith('Not posted') && (m.to.includes(DEV_REQUESTER_EMAIL) || m.to.includes('mailer-daemon@hospital.example')))).toHaveLength(0);
  }, 120_000);

  it('a 30 MB mail is refused at SMTP with the size limit, and its sender answered once', async () => {
    // A colleague the request names, answering the status email the portal sent them.
    const sender = `big.sender.${Date.now()}@hospital.example`;
    const { address, mail } = await submittedWithEmail({ recipientEmail: sender }, sender);
    const big = {
      from: sender, to: address, subject: `Re: ${mail.subject}`, messageId: newMessageId(), text: 'All the scans.',
      attachments: [{ filename: 'scans.pdf', content: Buffer.alloc(30 * 1024 * 1024, 0x41) }],
    };
    const refused = await send.sendMail(big).then(() => null, (error: Error & { responseCode?: number; response?: string }) => error);
    expect(refused, String(refused)).not.toBeNull();
    expect(refused?.responseCode).toBe(552);
    expect(refused?.response).toMatch(/maximum message size/);
    await send.sendMail(big).catch(() => null); // the sender tries again: still one answer
    const answer = await h.sink.waitFor((m) => m.to.includes(sender) && m.subject.startsWith('Not posted'), 60_000);
    expect(answer.text).toContain('larger than 20 MB');
    expect(await processed(h, big.messageId)).toBe('refused'); // both deliveries: one row, one workflow, finished
    expect(answersTo(sender)).toHaveLength(1);
    const row = await h.orm.em.fork().findOneOrFail(InboundMessageSchema, { messageId: big.messageId.slice(1, -1) });
    expect(row).toMatchObject({ state: 'refused', outcome: 'too-large' });
    expect(row.size).toBeGreaterThan(30 * 1024 * 1024);
  }, 180_000);

  it('an attachment of a type uploads refuse is not added, and the message says so', async () => {
    const { id, mail, address } = await submittedWithEmail();
    const messageId = newMessageId();
    await send.sendMail({
      from: DEV_REQUESTER_EMAIL, to: address, subject: `Re: ${mail.subject}`, messageId, text: replyAbove('See the files.', mail),
      attachments: [
        { filename: 'setup.pdf', content: Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(512, 0)]), contentType: 'application/pdf' },
        { filename: 'scan.png', content: Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f20000000049454e44ae426082', 'hex') },
      ],
    });
    expect(await processed(h, messageId)).toBe('posted');
    const [row] = await byEmailRows(id);
    expect(row.message).toBe('See the files.\n\nsetup.pdf was not added: this file type is not accepted.');
    const names = (await h.orm.em.fork().find(DocumentSchema, { requestId: id })).map((d) => [d.name, d.mimeType]);
    expect(names).toContainEqual(['scan.png', 'image/png']);
    expect(names.map(([name]) => name)).not.toContain('setup.pdf');
  }, 120_000);

  it('a reply to a closed request is refused and answered once', async () => {
    const { id, mail, address } = await submittedWithEmail();
    await h.orm.em.fork().nativeUpdate(RequestSchema, { id }, { status: 'Closed' });
    const late = { from: DEV_REQUESTER_EMAIL, to: address, subject: `Re: ${mail.subject}`, messageId: newMessageId(), text: 'One more thing.' };
    await send.sendMail(late);
    expect(await processed(h, late.messageId)).toBe('refused');
    const answer = await h.sink.waitFor((m) => m.to.includes(DEV_REQUESTER_EMAIL) && m.subject.startsWith('Not posted'), 30_000);
    expect(answer.text).toContain('this request is completed or closed');
    expect(await byEmailRows(id)).toHaveLength(0);
  }, 120_000);

  it('a message stored while its processing could not start is processed by the sweep', async () => {
    const { id, mail, address } = await submittedWithEmail();
    const raw = (await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail({
      from: DEV_REQUESTER_EMAIL, to: address, subject: `Re: ${mail.subject}`, messageId: newMessageId(), text: 'Stored before Temporal came back.',
    })).message as Buffer;
    const temporalAway = {
      connection: { withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn() },
      workflow: { start: () => Promise.reject(new Error('Temporal is away')) },
    } as unknown as Harness['temporal'];
    const deps = { orm: h.orm, files: h.files, taskQueue: h.config.taskQueue };
    const stored = await receiveInbound({ ...deps, temporal: temporalAway }, { raw, source: 'smtp', envelopeFrom: DEV_REQUESTER_EMAIL, envelopeTo: [address] });
    expect(await h.orm.em.fork().findOneOrFail(InboundMessageSchema, stored.id)).toMatchObject({ state: 'received' });
    expect(await resumeInboundMail({ ...deps, temporal: h.temporal })).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await byEmailRows(id)).length === 1 ? true : undefined, 60_000);
    expect((await byEmailRows(id))[0].message).toBe('Stored before Temporal came back.');
  }, 120_000);

  it('the development outbox lists what the listener received', async () => {
    const outbox = await startOutbox({ sink: h.sink, port: 0, inbound: () => recentInboundMessages(h.orm) });
    try {
      const page = await (await fetch(outbox.url)).text();
      expect(page).toContain('Received by the portal');
      expect(page).toMatch(/<td>posted<\/td>/);
      expect(page).toContain('mallory@elsewhere.example');
      const rows = await (await fetch(`${outbox.url}/api/inbound`)).json() as Array<{ state: string }>;
      expect(rows.map((r) => r.state)).toEqual(expect.arrayContaining(['posted', 'refused', 'ignored']));
    } finally {
      await outbox.close();
    }
  });

  it('keeps a processed message\'s raw bytes for the keep period, then removes them and keeps its row and what it posted', async () => {
    const { id, mail, address } = await submittedWithEmail();
    const [oldId, recentId] = [newMessageId(), newMessageId()];
    for (const messageId of [oldId, recentId]) {
      await send.sendMail({ from: DEV_REQUESTER_EMAIL, to: address, subject: `Re: ${mail.subject}`, messageId, text: replyAbove(`Reply ${messageId}`, mail) });
      expect(await processed(h, messageId)).toBe('posted');
    }
    const rowOf = (messageId: string) => h.orm.em.fork().findOneOrFail(InboundMessageSchema, { messageId: messageId.slice(1, -1) });
    const [old, recent] = [await rowOf(oldId), await rowOf(recentId)];
    await h.orm.em.fork().nativeUpdate(InboundMessageSchema, { id: old.id }, { processedAt: new Date(Date.now() - (INBOUND_RAW_KEEP_DAYS + 1) * 86_400_000) });
    await h.orm.em.fork().nativeUpdate(InboundMessageSchema, { id: recent.id }, { processedAt: new Date(Date.now() - (INBOUND_RAW_KEEP_DAYS - 1) * 86_400_000) });

    expect(await pruneInboundMessageFiles(h.orm.em.fork(), (name) => h.files.remove(name))).toBeGreaterThanOrEqual(1);
    await expect(stat(h.files.pathOf(old.storedName!))).rejects.toThrow();
    expect((await stat(h.files.pathOf(recent.storedName!))).size).toBeGreaterThan(0);
    expect(await rowOf(oldId)).toMatchObject({ state: 'posted', storedName: null, size: old.size });
    expect((await rowOf(recentId)).storedName).toBe(recent.storedName);
    expect((await byEmailRows(id)).map((r) => r.message).sort()).toEqual([`Reply ${oldId}`, `Reply ${recentId}`].sort());
    // The row still knows the message: delivered again, it is not posted twice.
    await send.sendMail({ from: DEV_REQUESTER_EMAIL, to: address, subject: `Re: ${mail.subject}`, messageId: oldId, text: replyAbove(`Reply ${oldId}`, mail) });
    expect(await h.orm.em.fork().count(InboundMessageSchema, { messageId: oldId.slice(1, -1) })).toBe(1);
    expect(await byEmailRows(id)).toHaveLength(2);
  }, 120_000);

  it('holds replies by email to the messages-an-hour quota, under a burst too, and answers the sender once', async () => {
    const colleague = `credentialing.${Date.now()}@hospital.example`;
    const { id, mail, address } = await submittedWithEmail({ recipientEmail: colleague }, colleague);
    // The colleague the request names has posted all but two of the hour's messages already.
    await h.orm.em.fork().getConnection().execute(`insert into discussions (created_at, updated_at, request_id, discussion_id, sender, sender_email, topic, message)
      select now() - interval '10 minutes', now(), ?, 'EARLIER', 'Colleague', ?, 'Earlier', 'Earlier message' from generate_series(1, ?)`,
    [id, colleague, MESSAGES_PER_HOUR - 2], 'run');
    // Twelve replies stored while Temporal was away, then all started at once (as after an outage): processed side by side.
    const ids = Array.from({ length: 12 }, () => newMessageId());
    const temporalAway = {
      connection: { withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn() },
      workflow: { start: () => Promise.reject(new Error('Temporal is away')) },
    } as unknown as Harness['temporal'];
    const deps = { orm: h.orm, files: h.files, taskQueue: h.config.taskQueue };
    const build = nodemailer.createTransport({ streamTransport: true, buffer: true });
    for (const [n, messageId] of ids.entries()) {
      // Each with an attachment: keeping it runs statements on the pool while the sender's turn is held.
      const { message } = await build.sendMail({ from: colleague, to: address, subject: `Re: ${mail.subject}`, messageId, text: replyAbove(`Burst ${n}`, mail),
        attachments: [{ filename: `scan-${n}.pdf`, content: SAMPLE_PDF, contentType: 'application/pdf' }] });
      await receiveInbound({ ...deps, temporal: temporalAway }, { raw: message as Buffer, source: 'smtp', envelopeFrom: colleague, envelopeTo: [address] });
    }
    expect(await resumeInboundMail({ ...deps, temporal: h.temporal })).toBeGreaterThanOrEqual(ids.length);
    const outcomes = await Promise.all(ids.map((messageId) => processed(h, messageId)));
    expect(outcomes.filter((o) => o === 'posted')).toHaveLength(2);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(ids.length - 2);
    for (const messageId of ids.filter((_, n) => outcomes[n] === 'refused')) {
      expect(await h.orm.em.fork().findOneOrFail(InboundMessageSchema, { messageId: messageId.slice(1, -1) })).toMatchObject({ outcome: 'too-many' });
    }
    expect((await byEmailRows(id)).map((r) => r.message)).toHaveLength(2);
    // Nobody waited for a database connection while others waited for the turn: every processing ran once.
    for (const messageId of ids) {
      const row = await h.orm.em.fork().findOneOrFail(InboundMessageSchema, { messageId: messageId.slice(1, -1) });
      const { events } = await h.temporal.workflow.getHandle(inboundWorkflowIdOf(row.dedupKey)).fetchHistory();
      expect((events ?? []).map((e) => e.activityTaskStartedEventAttributes?.attempt ?? 1).filter((attempt) => attempt > 1)).toEqual([]);
    }
    const answer = await h.sink.waitFor((m) => m.to.includes(colleague) && m.subject.startsWith('Not posted'), 60_000);
    expect(answer.text).toContain(`at most ${MESSAGES_PER_HOUR} messages an hour`);
    expect(answersTo(colleague)).toHaveLength(1);
  }, 180_000);

  it('holds a sender without an account to the daily upload bytes, by address', async () => {
    const colleague = `records.${Date.now()}@hospital.example`;
    const { id, mail, address } = await submittedWithEmail({ recipientEmail: colleague }, colleague);
    // Two PDFs of 0.6 MB each: the first fits the day's megabyte, the second does not.
    const pdf = Buffer.concat([SAMPLE_PDF, Buffer.alloc(600 * 1024, 0x20)]);
    for (const [n, filename] of ['first.pdf', 'second.pdf'].entries()) {
      const messageId = newMessageId();
      await send.sendMail({ from: colleague, to: address, subject: `Re: ${mail.subject}`, messageId, text: replyAbove(`Attachment ${n + 1}`, mail),
        attachments: [{ filename, content: pdf, contentType: 'application/pdf' }] });
      expect(await processed(h, messageId)).toBe('posted');
    }
    const documents = await h.orm.em.fork().find(DocumentSchema, { requestId: id, description: 'Attached to a reply by email' });
    expect(documents.map((d) => d.name)).toEqual(['first.pdf']);
    expect((await byEmailRows(id)).map((r) => r.message)).toEqual([
      'Attachment 1', expect.stringContaining('second.pdf was not added: the daily upload quota is used up.'),
    ]);
  }, 120_000);

  it('takes only reply addresses of this portal', async () => {
    const refused = await send.sendMail({ from: DEV_REQUESTER_EMAIL, to: 'someone@coi-portal.local', subject: 'x', text: 'x' })
      .then(() => null, (error: Error & { responseCode?: number }) => error);
    expect(refused?.responseCode).toBe(550);
  });
});
