/**
 * A reply by email survives the worker's death: the worker is a separate process, killed with SIGKILL between the
 * listener's 250 and the posting (at once, and again once the discussion row is written but before the request
 * workflow was told), then started again. Each reply is posted once, and the office notified once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DiscussionSchema, InboundMessageSchema } from '../../db/entities';
import { call, credentialingDraft, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { activitiesSettled } from '../support/workflow-activities';
import { requestWorkflowId } from '../../workflows/request.messages';
import { startHarness, type Harness } from '../support/portal-harness';
import { workerProcess } from '../support/worker-process';
import { processed, replyAbove, replyAddressOf, replyTransport, startReplyListener } from '../support/inbound-mail-helpers';
import type { InboundSmtpListener } from '../../mail-in/smtp-listener';
import { DEV_REQUESTER_EMAIL } from './fixtures-constants';

let h: Harness;
let requester: Session;
let listener: InboundSmtpListener;

const worker = workerProcess(() => h);
const startWorker = () => worker.start();
const killWorker = () => worker.kill();

beforeAll(async () => {
  h = await startHarness({ worker: false });
  requester = await loginRequester(h);
  listener = await startReplyListener(h);
  await startWorker();
}, 180_000);
afterAll(async () => {
  if (worker.running()) await killWorker();
  await listener?.close();
  await h?.stop();
});

it('kill -9 of the worker between receipt and posting: each reply is posted once, the office notified once', async () => {
  const id = await credentialingDraft(h, requester);
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status).toBe(200);
  const number = res.body.requestNumber as number;
  const mail = await h.sink.waitFor((m) => m.to.includes(DEV_REQUESTER_EMAIL) && m.subject.includes(String(number)), 60_000);
  const address = await replyAddressOf(h, mail, number);
  const send = replyTransport(listener);
  const reply = (n: number) => ({
    from: DEV_REQUESTER_EMAIL, to: address, subject: `Re: ${mail.subject}`, messageId: `<crash-${n}-${Date.now()}@phone.example>`,
    text: replyAbove(`Answer ${n}`, mail),
  });

  // 1. Killed right after the listener's 250.
  const first = reply(1);
  expect((await send.sendMail(first)).response).toMatch(/^250 /);
  await killWorker();
  // 2. Killed once the discussion row is written, before the request workflow was told (or right after).
  await startWorker();
  const second = reply(2);
  expect((await send.sendMail(second)).response).toMatch(/^250 /);
  const inbound = await eventually(() => h.orm.em.fork().findOne(InboundMessageSchema, { messageId: second.messageId.slice(1, -1) }), 30_000, 10);
  await eventually(() => h.orm.em.fork().findOne(DiscussionSchema, { inboundMessageId: inbound.id }), 60_000, 10);
  await killWorker();
  await startWorker();

  expect(await processed(h, first.messageId, 180_000)).toBe('posted');
  expect(await processed(h, second.messageId, 180_000)).toBe('posted');
  const rows = await h.orm.em.fork().find(DiscussionSchema, { requestId: id, byEmail: true }, { orderBy: { id: 'asc' } });
  expect(rows.map((r) => r.message).sort()).toEqual(['Answer 1', 'Answer 2']);
  const notices = () => h.sink.messages().filter((m) => m.subject === `Request ${number}: new message`);
  await eventually(async () => notices().length >= 2 ? true : undefined, 120_000);
  await activitiesSettled(h.temporal, requestWorkflowId(number)); // no notification is still on its way
  expect(notices()).toHaveLength(2);
  send.close();
}, 420_000);
