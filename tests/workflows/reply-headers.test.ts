/**
 * Answering by email, the outbound half, on real parts (PostgreSQL, Temporal, the SMTP sink): every email about a
 * request that invites an answer reaches each recipient in a message of its own whose Reply-To names that recipient
 * (a signed token), and every email of a request threads on the request's root id; account emails carry neither.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyText } from '../../mail-in/processing/reply-text';
import { RequestActivitySchema } from '../../db/entities';
import { isIssuedTo, verifyReplyToken } from '../../services/reply-token';
import { parseReplyAddress, threadRootId } from '../../domain/reply-address';
import type { Received } from '../../devtools/smtp-sink';
import { refuseInvalidDomains } from '../../devtools/smtp-sink';
import { requestWorkflowId } from '../../workflows/request.messages';
import { call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';
import { activitiesSettled } from '../support/workflow-activities';
import { DEV_REQUESTER_EMAIL } from './fixtures-constants';

let h: Harness;
let requester: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness();
  requester = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

async function submitted(overrides: Record<string, unknown> = {}) {
  const id = await credentialingDraft(h, requester, overrides);
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status).toBe(200);
  return { id, number: res.body.requestNumber as number };
}

/** The request a message's Reply-To answers and whom its token was issued to (null: no reply address). */
function replyTokenOf(mail: Received) {
  const { reply } = h.config;
  expect(mail.replyTo.length).toBeLessThanOrEqual(1);
  if (!mail.replyTo.length) return null;
  const token = parseReplyAddress(mail.replyTo[0], reply.local, reply.domain!);
  expect(token, `Reply-To ${mail.replyTo[0]}`).not.toBeNull();
  return verifyReplyToken(token!, reply.tokenKey);
}

function expectAnswerable(mail: Received, number: number, recipient: string) {
  expect(mail.to).toEqual([recipient]);
  expect(mail.replyTo[0]).toMatch(new RegExp(`^reply\\+${number}-[a-z2-7]{24}@coi-portal\\.local$`));
  const claims = replyTokenOf(mail);
  expect(claims).toMatchObject({ requestNumber: number, expired: false });
  expect(isIssuedTo(claims!, recipient, h.config.reply.tokenKey)).toBe(true);
  expectThreaded(mail, number);
}

function expectThreaded(mail: Received, number: number) {
  const root = threadRootId(number, 'coi-portal.local');
  expect(mail.inReplyTo).toBe(root);
  expect(mail.references).toBe(root);
  expect(mail.messageId).toMatch(/^<[A-Za-z0-9.-]+@coi-portal\.local>$/);
  expect(mail.messageId).not.toBe(root);
}

describe('status emails', () => {
  it('each recipient gets the Submission Confirmation alone, with a reply address issued to them and the thread root', async () => {
    const { number } = await submitted({ addlRecipients: 'Office@Hospital.example; billing@hospital.example' });
    const mails = () => h.sink.messages().filter((m) => m.subject.startsWith(`Request ${number} received:`));
    await eventually(async () => (mails().length === 3 ? true : undefined), 30_000);
    const byRecipient = new Map(mails().map((m) => [m.to[0], m]));
    expectAnswerable(byRecipient.get(DEV_REQUESTER_EMAIL)!, number, DEV_REQUESTER_EMAIL);
    expectAnswerable(byRecipient.get('office@hospital.example')!, number, 'office@hospital.example');
    expectAnswerable(byRecipient.get('billing@hospital.example')!, number, 'billing@hospital.example');
    // Each recipient's address differs (a reply from one is told apart from another's); Message-IDs too.
    expect(new Set(mails().map((m) => m.replyTo[0])).size).toBe(3);
    expect(new Set(mails().map((m) => m.messageId)).size).toBe(3);
    // Answered from Gmail above the quoted email: what would be posted is the new text alone.
    const mail = byRecipient.get(DEV_REQUESTER_EMAIL)!;
    const answer = `Here is the signed release.\n\nOn Fri, Nov 27, 2026 at 9:14 AM Risk Management <\n${mail.replyTo[0]}> wrote:\n\n`
      + mail.text.split('\n').map((line) => `> ${line}`.trimEnd()).join('\n');
    expect(replyText({ text: answer })).toBe('Here is the signed release.');
    // Nobody sees the others' reply address: each message names one recipient.
    expect(mails().every((m) => m.envelope.to.length === 1 && m.text.includes(String(number)))).toBe(true);
    await activitiesSettled(h.temporal, requestWorkflowId(number));
    expect(mails()).toHaveLength(3);
  });

  it('a recipient the server refuses for now gets theirs on the retry, with the same Message-ID; the others get exactly one', async () => {
    // Greylisting: the first RCPT TO for this address is refused for now, any later one taken.
    let greylisted = 0;
    h.sink.setRecipientRule((address) => {
      if (address !== 'later@hospital.example' || greylisted > 0) return refuseInvalidDomains(address);
      greylisted += 1;
      return '451 4.7.1 greylisted, try again later';
    });
    try {
      const { id, number } = await submitted({ addlRecipients: 'later@hospital.example' });
      const mails = () => h.sink.messages().filter((m) => m.subject.startsWith(`Request ${number} received:`));
      const first = await h.sink.waitFor((m) => m.subject.startsWith(`Request ${number} received:`), 30_000);
      expect(first.to).toEqual([DEV_REQUESTER_EMAIL]);
      const later = await h.sink.waitFor((m) => m.subject.startsWith(`Request ${number} received:`) && m.to[0] === 'later@hospital.example', 60_000);
      expect(greylisted).toBe(1);
      expectAnswerable(later, number, 'later@hospital.example');
      expect(later.messageId).toBe(first.messageId!.replace('@', '.to2@'));
      // Sent once to each: the audit row does not say "possibly twice".
      const sent = await eventually(async () => (await h.orm.em.fork().findOne(RequestActivitySchema, {
        requestId: id, activityText: { $like: '"Submission Confirmation" email sent%' },
      })) ?? undefined, 60_000);
      expect(sent.activityText).toBe('"Submission Confirmation" email sent');
      expect(sent.recipients).toBe(`${DEV_REQUESTER_EMAIL}, later@hospital.example`);
      await activitiesSettled(h.temporal, requestWorkflowId(number));
      expect(mails().filter((m) => m.to[0] === DEV_REQUESTER_EMAIL)).toHaveLength(1);
      expect(mails()).toHaveLength(2);
    } finally {
      h.sink.setRecipientRule(refuseInvalidDomains);
    }
  });

  it('the office alert of a resubmission threads with the request but carries no reply address', async () => {
    const { id, number } = await submitted();
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Pending Additional Information' })).status).toBe(200);
    const info = await h.sink.waitFor((m) => m.subject.includes(String(number)) && /additional information/i.test(m.subject + m.text), 30_000);
    expectAnswerable(info, number, DEV_REQUESTER_EMAIL);
    expect((await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' })).status).toBe(200);
    const alert = await h.sink.waitFor((m) => m.subject === `Request ${number} resubmitted`, 30_000);
    expect(alert.to).toEqual([h.config.riskManagementEmail]);
    expect(alert.replyTo).toEqual([]);
    expectThreaded(alert, number);
  });
});

describe('discussion and hand-sent emails', () => {
  it('a requester\'s message reaches the office mailbox answerable by it; an administrator\'s reaches the requester answerable by them', async () => {
    const { id, number } = await submitted();
    const mails = () => h.sink.messages().filter((m) => m.subject === `Request ${number}: new message`);
    const first = await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Dates', message: 'Is July fine?' });
    expect(first.status).toBe(201);
    await eventually(async () => (mails().length === 1 ? true : undefined), 30_000);
    expectAnswerable(mails()[0], number, h.config.riskManagementEmail);
    expect((await call(h, admin, 'POST', '/api/v1/discussions', { requestId: id, discussionId: first.body.discussionId, message: 'Yes.' })).status).toBe(201);
    await eventually(async () => (mails().length === 2 ? true : undefined), 30_000);
    expectAnswerable(mails()[1], number, DEV_REQUESTER_EMAIL);
  });

  it('a template an administrator sends by hand goes to each address with its own reply address', async () => {
    const { id, number } = await submitted();
    const res = await call(h, admin, 'POST', '/api/v1/send-email', { requestId: id, templateTitle: 'Pending New Policy Year', recipients: 'one@example.org' });
    expect(res.status).toBe(202);
    const mails = () => h.sink.messages().filter((m) => m.subject.includes(String(number)) && /new policy year/i.test(m.subject));
    await eventually(async () => (mails().length === 2 ? true : undefined), 30_000);
    expectAnswerable(mails().find((m) => m.to[0] === DEV_REQUESTER_EMAIL)!, number, DEV_REQUESTER_EMAIL);
    expectAnswerable(mails().find((m) => m.to[0] === 'one@example.org')!, number, 'one@example.org');
  });
});

describe('account emails', () => {
  it('a password reset carries no reply address and no thread', async () => {
    expect((await call(h, null, 'POST', '/api/v1/password-reset', { email: DEV_REQUESTER_EMAIL })).status).toBe(201);
    const mail = await h.sink.waitFor((m) => m.to.includes(DEV_REQUESTER_EMAIL) && m.subject === 'Reset your password', 30_000);
    expect(mail.replyTo).toEqual([]);
    expect(mail.inReplyTo).toBeNull();
    expect(mail.references).toBeNull();
    expect(mail.messageId).toMatch(/^<password-reset\.[0-9a-f-]+@coi-portal\.local>$/);
  });
});
