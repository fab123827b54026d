/**
 * On real parts (PostgreSQL, the Temporal dev server, the SMTP sink, Chromium): effects that never block
 * and never hide, repeated commands answered like the first, snapshots, workflows that end and come back.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities';
import { createMailer } from '../../activities/mailer';
import { RequestActivitySchema, RequestEffectSchema, RequestSchema } from '../../db/entities';
import { refuseInvalidDomains } from '../../devtools/smtp-sink';
import { requestWorkflowId, stateQuery } from '../../workflows/request.messages';
import { call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';
import { DEV_REQUESTER_EMAIL } from './fixtures-constants';
import { activitiesSettled } from '../support/workflow-activities';

let h: Harness;
let requester: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness();
  requester = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });
beforeEach(() => h.sink.setRecipientRule(refuseInvalidDomains));

const audit = async (id: number) =>
  (await h.orm.em.fork().find(RequestActivitySchema, { requestId: id }, { orderBy: { id: 'asc' } }));
const auditTexts = async (id: number) => (await audit(id)).map((a) => a.activityText);
const stored = (id: number) => h.orm.em.fork().findOneOrFail(RequestSchema, id);
const adminActor = { name: 'Dev Administrator', email: 'admin@coi-portal.local' };

async function submitted(overrides: Record<string, unknown> = {}) {
  const id = await credentialingDraft(h, requester, overrides);
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status).toBe(200);
  return { id, number: res.body.requestNumber as number };
}

describe('effects never block and never hide', () => {
  it('a mail server refusing the recipient fails the email at once, visibly; the next email still goes out; Send again delivers it', async () => {
    h.sink.setRecipientRule((address) => (address === DEV_REQUESTER_EMAIL ? '550 5.1.1 mailbox unavailable' : null));
    const { id, number } = await submitted();
    const failed = await eventually(async () =>
      (await audit(id)).find((a) => a.activityType === 'Email Failed'));
    // Non-retryable: a 5xx is final at the first attempt (a retried one would claim the effect again, for minutes).
    const effect = await h.orm.em.fork().findOneOrFail(RequestEffectSchema, failed.effectId!);
    expect({ state: effect.state, claims: effect.claims }).toEqual({ state: 'failed', claims: 1 });
    expect(failed.activityText).toMatch(/^"Submission Confirmation" email failed: .*550/);
    expect(failed.effectId).toBeTruthy();

    h.sink.setRecipientRule(refuseInvalidDomains);
    const info = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Pending Additional Information' });
    expect(info.status).toBe(200);
    await h.sink.waitFor((m) => m.subject.includes(String(number)) && /additional information/i.test(m.subject + m.text), 60_000);

    // "Send again" on the failed row, pressed twice: the same command, one email
    const again = { requestId: id, templateTitle: 'Submission Confirmation', retryOf: failed.id };
    const [first, second] = await Promise.all([
      call(h, admin, 'POST', '/api/v1/send-email', again), call(h, admin, 'POST', '/api/v1/send-email', again),
    ]);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(first.body).toEqual({ queued: true, templateTitle: 'Submission Confirmation' });
    await h.sink.waitFor((m) => m.subject.includes(String(number)) && m.subject.includes('received'), 60_000);
    await eventually(async () => (await auditTexts(id)).includes('"Submission Confirmation" email sent'));
    await activitiesSettled(h.temporal, `request-${number}`); // a second copy would have gone out by now
    expect(h.sink.messages().filter((m) => m.subject.includes(String(number)) && m.subject.includes('received'))).toHaveLength(1);
  });

  it('one refused additional recipient: the email reaches the others and the refusal is shown', async () => {
    const { id, number } = await submitted({ addlRecipients: 'office@hospital.example; nobody@closed.invalid' });
    // Each recipient gets a message of their own (their own reply address): the two that exist get theirs.
    await h.sink.waitFor((m) => m.subject.includes(String(number)) && m.envelope.to.includes('office@hospital.example'), 60_000);
    const mails = h.sink.messages().filter((m) => m.subject.includes(String(number)));
    expect(mails.map((m) => m.envelope.to).sort()).toEqual([[DEV_REQUESTER_EMAIL], ['office@hospital.example']].sort());
    const rows = await eventually(async () => {
      const all = await audit(id);
      return all.some((a) => a.activityType === 'Email Failed') && all;
    });
    expect(rows.find((a) => a.activityType === 'Email Failed')!.activityText)
      .toBe('"Submission Confirmation" email failed: the mail server refused nobody@closed.invalid');
    expect(rows.find((a) => a.activityText === '"Submission Confirmation" email sent')!.recipients)
      .toBe(`${DEV_REQUESTER_EMAIL}, office@hospital.example`);
  });

  it('an address that is not an email address (saved before validation existed) fails without retrying', async () => {
    const { id } = await submitted();
    const em = h.orm.em.fork();
    const row = await em.findOneOrFail(RequestSchema, id);
    row.addlRecipients = 'not-an-address';
    await em.flush();
    await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Pending Employment' });
    const failed = await eventually(async () => (await audit(id)).find((a) => a.activityText.startsWith('"Pending Employment" email failed')), 60_000);
    expect(failed.activityText).toBe('"Pending Employment" email failed: "not-an-address" is not a valid email address');
  });
});

describe('a repeated command answers like the first', () => {
  it('Approve pressed again on the same version: one change, one email, the same answer; after the workflow ended too', async () => {
    const { id, number } = await submitted();
    const version = (await stored(id)).version;
    const body = { status: 'Approved', verified: true, version };
    const [first, second] = await Promise.all([
      call(h, admin, 'PATCH', `/api/v1/requests/${id}`, body),
      call(h, admin, 'PATCH', `/api/v1/requests/${id}`, body),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.status).toBe('Approved');
    await h.sink.waitFor((m) => m.subject.includes(`${number} approved`), 60_000);
    const handle = h.temporal.workflow.getHandle(requestWorkflowId(number));
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED', 60_000);

    const third = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, body);
    expect(third.status).toBe(200);
    expect(third.body.status).toBe('Approved');
    const changes = (await auditTexts(id)).filter((t) => t === 'Status changed from "Submitted" to "Approved"');
    expect(changes).toHaveLength(1);
    expect(h.sink.messages().filter((m) => m.subject.includes(`${number} approved`))).toHaveLength(1);
  });

  it('a command made on a version someone else changed meanwhile is a Conflict, and changes nothing', async () => {
    const { id } = await submitted();
    const seen = (await stored(id)).version;
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Pending Employment', version: seen })).status).toBe(200);
    const stale = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Denied', version: seen });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ name: 'Conflict', code: 409 });
    expect((await stored(id)).status).toBe('Pending Employment');
  });
});

describe('workflows end, and come back from PostgreSQL', () => {
  it('a request whose workflow was terminated takes the next command on a new run, whose keys differ', async () => {
    const { id, number } = await submitted();
    const handle = h.temporal.workflow.getHandle(requestWorkflowId(number));
    await eventually(async () => (await auditTexts(id)).includes('"Submission Confirmation" email sent'));
    const firstRun = (await handle.describe()).runId;
    await handle.terminate('operator test');

    const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Pending New Policy Year' });
    expect(res.status).toBe(200);
    expect((await stored(id)).status).toBe('Pending New Policy Year');
    expect(await auditTexts(id)).toContain('Status changed from "Submitted" to "Pending New Policy Year"');
    await h.sink.waitFor((m) => m.subject.includes(String(number)) && /policy year/i.test(m.subject + m.text), 60_000);
    const current = h.temporal.workflow.getHandle(requestWorkflowId(number));
    expect((await current.describe()).runId).not.toBe(firstRun);
    const keys = (await h.orm.em.fork().find(RequestEffectSchema, { requestId: id })).map((e) => e.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('an effect an ended run still owed is carried out by the next run', async () => {
    const { id, number } = await submitted();
    const handle = h.temporal.workflow.getHandle(requestWorkflowId(number));
    await eventually(async () => (await auditTexts(id)).includes('"Submission Confirmation" email sent'));
    await handle.terminate('operator test');
    // What a run terminated between the status write and the email leaves behind: a pending effect.
    const activities = createActivities({ orm: h.orm, mailer: createMailer(h.sink.url), pdf: h.pdf, files: h.files, config: h.config });
    await activities.recordStatus({
      key: `${requestWorkflowId(number)}:terminated-run:7`, requestId: id, previousStatus: 'Submitted', status: 'Pending Employment',
      at: new Date().toISOString(), submitted: false, completedDate: null, actor: adminActor, commandId: null,
      effect: { kind: 'email', templateTitle: 'Pending Employment' },
    });
    const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Pending Additional Information' });
    expect(res.status).toBe(200);
    await h.sink.waitFor((m) => m.messageId?.includes('terminated-run.7') ?? false, 60_000);
    await eventually(async () => (await auditTexts(id)).includes('"Pending Employment" email sent'));
  });

  it('the workflow completes once the request is decided and its emails are out; Reopen starts a new run', async () => {
    const { id, number } = await submitted();
    await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Denied' });
    const handle = h.temporal.workflow.getHandle(requestWorkflowId(number));
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED', 60_000);
    expect(await auditTexts(id)).toContain('"Credentialing Request Denied" email sent');
    const reopened = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Draft' });
    expect(reopened.body.status).toBe('Draft');
    const next = h.temporal.workflow.getHandle(requestWorkflowId(number));
    expect((await next.describe()).status.name).toBe('RUNNING');
    expect((await next.query(stateQuery)).status).toBe('Draft');
  });
});

describe('emails and letters say what was true at the change', () => {
  it('an edit after the status change does not change the email it sent', async () => {
    const id = await credentialingDraft(h, requester);
    const activities = createActivities({ orm: h.orm, mailer: createMailer(h.sink.url), pdf: h.pdf, files: h.files, config: h.config });
    const key = `snapshot-test-${id}:run:1`;
    await activities.recordStatus({
      key, requestId: id, previousStatus: 'Submitted', status: 'Pending Additional Information', at: new Date().toISOString(),
      submitted: false, completedDate: null, actor: adminActor, commandId: null,
      effect: { kind: 'email', templateTitle: 'Additional Information Needed' },
    });
    const em = h.orm.em.fork();
    const row = await em.findOneOrFail(RequestSchema, id);
    row.firstName = 'Renamed';
    row.lastName = 'Later';
    await em.flush();
    await activities.sendEffectEmail({ key });
    const mail = await h.sink.waitFor((m) => m.messageId?.includes(`snapshot-test-${id}`) ?? false);
    expect(mail.text).toContain('Avery Nguyen');
    expect(mail.text).not.toContain('Renamed');
  });

  it('a retry that finds a claimed but unmarked email sends it with the same Message-ID and says "possibly twice"', async () => {
    const id = await credentialingDraft(h, requester);
    const activities = createActivities({ orm: h.orm, mailer: createMailer(h.sink.url), pdf: h.pdf, files: h.files, config: h.config });
    const key = `claimed-test-${id}:run:1`;
    await activities.recordStatus({
      key, requestId: id, previousStatus: 'Submitted', status: 'Pending Employment', at: new Date().toISOString(),
      submitted: false, completedDate: null, actor: adminActor, commandId: null, effect: { kind: 'email', templateTitle: 'Pending Employment' },
    });
    const em = h.orm.em.fork();
    const effect = await em.findOneOrFail(RequestEffectSchema, { idempotencyKey: key });
    effect.claimedAt = new Date(); // the first attempt's worker died after the claim
    await em.flush();
    const result = await activities.sendEffectEmail({ key });
    expect(result.possiblyTwice).toBe(true);
    const mail = await h.sink.waitFor((m) => m.messageId?.includes(`claimed-test-${id}`) ?? false);
    expect(mail.messageId).toBe(result.messageId);
    expect(await auditTexts(id)).toContain('"Pending Employment" email sent (possibly twice)');
  });

  it('after two attempts that each claimed it and died, the audit row says it may have gone out 3 times', async () => {
    const id = await credentialingDraft(h, requester);
    const activities = createActivities({ orm: h.orm, mailer: createMailer(h.sink.url), pdf: h.pdf, files: h.files, config: h.config });
    const key = `claimed-thrice-${id}:run:1`;
    await activities.recordStatus({
      key, requestId: id, previousStatus: 'Submitted', status: 'Pending Employment', at: new Date().toISOString(),
      submitted: false, completedDate: null, actor: adminActor, commandId: null, effect: { kind: 'email', templateTitle: 'Pending Employment' },
    });
    const em = h.orm.em.fork();
    const effect = await em.findOneOrFail(RequestEffectSchema, { idempotencyKey: key });
    Object.assign(effect, { claimedAt: new Date(), claims: 2 }); // two workers died between the server's answer and the mark
    await em.flush();
    expect((await activities.sendEffectEmail({ key })).possiblyTwice).toBe(true);
    expect(await auditTexts(id)).toContain('"Pending Employment" email sent (possibly 3 times)');
    expect((await h.orm.em.fork().findOneOrFail(RequestEffectSchema, { idempotencyKey: key })).claims).toBe(3);
  });
});

describe('the admin work queue (spec 2 §7.4)', () => {
  it('leaves out only Approved, Approved with Letter of Intent and Denied: a Closed request stays listed', async () => {
    const denied = await submitted();
    const closed = await submitted();
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${denied.id}`, { status: 'Denied' })).status).toBe(200);
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${closed.id}`, { status: 'Closed' })).status).toBe(200);
    const queue = (await call(h, admin, 'GET', '/api/v1/admin-dashboard')).body.adminRequests.map((r: { id: number }) => r.id);
    expect(queue).toContain(closed.id);
    expect(queue).not.toContain(denied.id);
  });
});
