/**
 * The request's own clocks on the real dev server, PostgreSQL and SMTP sink, with every day compressed
 * to 2 s (CLOCK_DAY_SECONDS): reminders after 1 and 2 business days, auto-close after 3, escalation after 2, the
 * signed release valid 180 (compressed) days. Each clock is asserted as the requester or the office notices it: the
 * email in the sink, the audit row, the status; and never before it is due.
 */
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createMailer } from '../../activities/mailer';
import { RequestActivitySchema, RequestSchema } from '../../db/entities';
import { addDays, zonedDay } from '../../domain';
import { createRequestWorker, type RequestWorkers } from '../../worker/request-worker';
import { REQUEST_WORKFLOW_TYPE, requestWorkflowId, stateQuery } from '../../workflows/request.messages';
import { call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';
import { AUTOMATED_EMAIL_ACTOR, DEV_REQUESTER_EMAIL } from './fixtures-constants';

const DAY_MS = 2000;
let h: Harness;
let requester: Session;
let admin: Session;
let replacement: RequestWorkers | null = null;
let replacementRunning: Promise<void> | null = null;

beforeAll(async () => {
  h = await startHarness({
    env: {
      CLOCK_DAY_SECONDS: String(DAY_MS / 1000), REMINDER_BUSINESS_DAYS: '1,2', AUTO_CLOSE_BUSINESS_DAYS: '3', ESCALATION_BUSINESS_DAYS: '2',
    },
  });
  requester = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => {
  replacement?.shutdown();
  await replacementRunning;
  await h?.stop();
});

async function submitted(): Promise<{ id: number; number: number; submittedAt: number }> {
  const id = await credentialingDraft(h, requester);
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status).toBe(200);
  return { id, number: res.body.requestNumber, submittedAt: Date.parse(res.body.submitDate) };
}

const audit = (id: number) => h.orm.em.fork().find(RequestActivitySchema, { requestId: id }, { orderBy: { id: 'asc' } });
const mails = (subject: string) => h.sink.messages().filter((m) => m.subject === subject);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setStatus(id: number, status: string): Promise<number> {
  const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status, verified: false });
  expect(res.status).toBe(200);
  const rows = await audit(id);
  return rows.filter((r) => r.activityText.endsWith(`to "${status}"`)).at(-1)!.date.getTime();
}

async function findByQuery(query: string): Promise<string[]> {
  return eventually(async () => {
    const found: string[] = [];
    for await (const wf of h.temporal.workflow.list({ query })) found.push(wf.workflowId);
    return found.length > 0 && found;
  }, 60_000, 250);
}

describe('escalation of a request nobody reviewed', () => {
  it('after K business days: one email to the administrators\' mailbox and one audit row, never before it is due', async () => {
    const { id, number, submittedAt } = await submitted();
    const handle = h.temporal.workflow.getHandle(requestWorkflowId(number));
    const state = await eventually(async () => { const s = await handle.query(stateQuery); return s.clock && s; });
    expect(state.clock).toMatchObject({ kind: 'escalation', summary: 'Escalation: submitted and not yet reviewed' });
    expect(Date.parse(state.clock!.dueAt)).toBe(submittedAt + 2 * DAY_MS);
    // Operators find it by what it waits for, by requester, type and number.
    expect(await findByQuery(`RequestClock="escalation" AND RequestNumber=${number}`)).toEqual([requestWorkflowId(number)]);
    expect(await findByQuery(`RequestRequester="${DEV_REQUESTER_EMAIL}" AND RequestType="credentialing" AND RequestNumber=${number}`))
      .toEqual([requestWorkflowId(number)]);

    const mail = await h.sink.waitFor((m) => m.subject === `Request ${number} is waiting for review`, 30_000);
    expect(mail.to).toEqual([h.config.riskManagementEmail]);
    await pause(DAY_MS); // a second escalation would come by now
    expect(mails(`Request ${number} is waiting for review`)).toHaveLength(1);
    const rows = await eventually(async () => { const r = await audit(id); return r.some((a) => a.activityText === '"Request Escalation" email sent') && r; });
    const escalations = rows.filter((r) => r.activityType === 'Escalation');
    expect(escalations).toHaveLength(1);
    expect(escalations[0]).toMatchObject({
      performedBy: AUTOMATED_EMAIL_ACTOR, activityText: 'Escalated to the administrators: submitted and not reviewed for 2 business days',
    });
    expect(escalations[0].date.getTime()).toBeGreaterThanOrEqual(submittedAt + 2 * DAY_MS);
    expect((await handle.query(stateQuery)).clock).toBeNull();
  });
});

describe('reminders and auto-close in Pending Additional Information', () => {
  it('reminds the requester after N and M business days, then closes the request with an audit row and an email', async () => {
    const { id, number } = await submitted();
    const pendingSince = await setStatus(id, 'Pending Additional Information');

    const closed = await h.sink.waitFor((m) => m.subject === `Request ${number} closed`, 60_000);
    expect(closed.to).toEqual([DEV_REQUESTER_EMAIL]);
    expect(closed.text).toContain('did not receive the additional information');
    const reminders = mails(`Reminder: request ${number} needs additional information`);
    expect(reminders).toHaveLength(2);
    expect(reminders.every((m) => m.to.join() === DEV_REQUESTER_EMAIL)).toBe(true);

    const rows = await eventually(async () => { const r = await audit(id); return r.some((a) => a.activityText === '"Request Closed: No Response" email sent') && r; });
    const first = rows.find((r) => r.activityText.startsWith('Reminder 1 sent'))!;
    const second = rows.find((r) => r.activityText.startsWith('Reminder 2 sent'))!;
    const close = rows.find((r) => r.activityText.startsWith('Status changed from "Pending Additional Information" to "Closed"'))!;
    expect(first.activityText).toBe('Reminder 1 sent: no additional information from the requester after 1 business day');
    expect(second.activityText).toBe('Reminder 2 sent: no additional information from the requester after 2 business days');
    expect(close.activityText).toBe('Status changed from "Pending Additional Information" to "Closed": closed automatically: no answer from the requester after 3 business days');
    for (const row of [first, second, close]) expect(row.performedBy).toBe(AUTOMATED_EMAIL_ACTOR);
    // What the reports and the clocks read back is in columns: the clock that made each row, the change.
    expect([first.clock, second.clock, close.clock]).toEqual(['reminder-1', 'reminder-2', 'auto-close']);
    expect([close.statusFrom, close.statusTo]).toEqual(['Pending Additional Information', 'Closed']);
    expect(first.date.getTime()).toBeGreaterThanOrEqual(pendingSince + DAY_MS);
    expect(second.date.getTime()).toBeGreaterThanOrEqual(pendingSince + 2 * DAY_MS);
    expect(close.date.getTime()).toBeGreaterThanOrEqual(pendingSince + 3 * DAY_MS);
    expect(rows.filter((r) => r.activityType === 'Escalation')).toHaveLength(0); // reviewed (asked for information) before K
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(row.status).toBe('Closed');
    expect(row.completedDate).toBeTruthy();

    // The workflow ended (finished, owes nothing); its pending timers were named after what they waited for.
    const handle = h.temporal.workflow.getHandle(requestWorkflowId(number));
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED');
    const history = await handle.fetchHistory();
    const summaries = (history.events ?? []).filter((e) => e.timerStartedEventAttributes)
      .map((e) => Buffer.from(e.userMetadata?.summary?.data ?? []).toString());
    expect(summaries).toEqual(expect.arrayContaining([
      expect.stringContaining('First reminder'), expect.stringContaining('Second reminder'), expect.stringContaining('Auto-close'),
    ]));
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, requestWorkflowId(number));
  });

  it('the office clock pauses while the request waits on the requester and restarts from zero on resubmission', async () => {
    const { id, number, submittedAt } = await submitted();
    const pendingSince = await setStatus(id, 'Pending Additional Information');
    await eventually(async () => (await audit(id)).some((r) => r.activityType === 'Reminder'), 30_000);
    const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(res.status).toBe(200);
    const resubmittedAt = (await audit(id)).filter((r) => r.activityType === 'Submission').at(-1)!.date.getTime();
    expect(resubmittedAt).toBeGreaterThan(submittedAt + DAY_MS);

    await h.sink.waitFor((m) => m.subject === `Request ${number} is waiting for review`, 30_000);
    const rows = await audit(id);
    const escalation = rows.find((r) => r.activityType === 'Escalation')!;
    // Not 2 days after the first submit: 2 days after the resubmission.
    expect(escalation.date.getTime()).toBeGreaterThanOrEqual(resubmittedAt + 2 * DAY_MS);
    // The requester answered: the second reminder (due 2 days after Pending Additional Information) never came.
    expect(Date.now()).toBeGreaterThan(pendingSince + 2 * DAY_MS);
    expect(rows.filter((r) => r.activityType === 'Reminder')).toHaveLength(1);
    expect(mails(`Reminder: request ${number} needs additional information`)).toHaveLength(1);
  });
});

describe('signed release', () => {
  it('is recorded by an administrator when verifying, validated on the server', async () => {
    const draft = await credentialingDraft(h, requester);
    const onDraft = await call(h, admin, 'PATCH', `/api/v1/requests/${draft}`, { verified: true, signedReleaseDate: zonedDay(Date.now(), h.config.clockPolicy.calendar.timeZone) });
    expect(onDraft.status).toBe(400);
    expect(onDraft.body.message).toBe('A signed release is recorded once the request is submitted');

    const { id } = await submitted();
    const today = zonedDay(Date.now(), h.config.clockPolicy.calendar.timeZone);
    const byRequester = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { signedReleaseDate: today });
    expect(byRequester.status).toBe(403);
    const future = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { verified: true, signedReleaseDate: addDays(today, 1) });
    expect(future.status).toBe(400);
    expect(future.body).toMatchObject({ name: 'BadRequest', message: 'Field validation error.', errors: { signedReleaseDate: 'The signed release date cannot be in the future' } });
    const old = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { verified: true, signedReleaseDate: addDays(today, -181) });
    expect(old.body.errors).toEqual({ signedReleaseDate: 'The signed release must be dated within the last 180 days' });
    const ok = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { verified: true, signedReleaseDate: today });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ signedReleaseDate: today, verified: true, status: 'Submitted' });
    const [y, m, d] = today.split('-');
    expect((await audit(id)).map((r) => r.activityText)).toContain(`Signed release dated ${m}/${d}/${y} recorded`);
  });

  it('expiring on an open request moves it to Pending Additional Information and asks for a new release', async () => {
    const { id, number } = await submitted();
    const today = zonedDay(Date.now(), h.config.clockPolicy.calendar.timeZone);
    const releaseDay = addDays(today, -180); // its last valid day is today: it expires after one (compressed) day
    const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { verified: true, signedReleaseDate: releaseDay });
    expect(res.status).toBe(200);
    const state = await h.temporal.workflow.getHandle(requestWorkflowId(number)).query(stateQuery);
    expect(state.clock?.kind).toBe('release-expiry');

    const mail = await h.sink.waitFor((m) => m.subject === `Request ${number}: additional information needed`, 30_000);
    expect(mail.to).toEqual([DEV_REQUESTER_EMAIL]);
    const [y, m, d] = releaseDay.split('-');
    expect(mail.text).toContain(`The signed release dated ${m}/${d}/${y} is more than 180 days old. Please upload a new signed release and resubmit the request.`);
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(row.status).toBe('Pending Additional Information');
    const change = (await audit(id)).find((r) => r.activityText.startsWith('Status changed from "Submitted" to "Pending Additional Information"'))!;
    expect(change).toMatchObject({
      performedBy: AUTOMATED_EMAIL_ACTOR, clock: 'release-expiry',
      activityText: `Status changed from "Submitted" to "Pending Additional Information": signed release dated ${m}/${d}/${y} expired after 180 days: a new signed release was requested`,
    });
  });
});

describe('durable clocks', () => {
  it('due instants carried across continue-as-new are kept, not restarted', async () => {
    const id = await credentialingDraft(h, requester);
    // Escalation due a minute from now by the carried instant (a restarted clock would be due 2 days from now): far
    // enough that the workflow answers the query before it fires, however busy the machine.
    const statusSince = new Date(Date.now() - 2 * DAY_MS + 60_000).toISOString();
    const workflowId = `request-clock-carry-${id}`;
    const handle = await h.temporal.workflow.start(REQUEST_WORKFLOW_TYPE, {
      workflowId, taskQueue: h.config.taskQueue,
      args: [{
        requestId: id, requestNumber: 900_000 + id, requestType: 'credentialing', status: 'Submitted', pendingEffects: [],
        clockPolicy: h.config.clockPolicy,
        clocks: { status: 'Submitted', statusSince, remindersSent: 0, escalated: false, signedReleaseDate: null, signedReleaseRecordedAt: null, releaseExpiryHandled: false },
      }],
    });
    const state = await eventually(async () => { const st = await handle.query(stateQuery); return st.clock && st; });
    expect(state.clock).toMatchObject({ kind: 'escalation' });
    expect(Date.parse(state.clock!.dueAt)).toBe(Date.parse(statusSince) + 2 * DAY_MS);
    await handle.terminate('test done');
  });

  it('a clock that falls due while the worker is down fires once when it returns', async () => {
    const { id, number, submittedAt } = await submitted();
    const handle = h.temporal.workflow.getHandle(requestWorkflowId(number));
    await eventually(async () => (await handle.query(stateQuery)).clock?.kind === 'escalation');
    h.worker!.shutdown();
    await eventually(async () => h.worker!.workers.every((w) => w.getState() === 'STOPPED'), 30_000, 200);

    const due = submittedAt + 2 * DAY_MS;
    await pause(Math.max(0, due - Date.now()) + DAY_MS);
    expect(mails(`Request ${number} is waiting for review`)).toHaveLength(0);
    expect((await audit(id)).filter((r) => r.activityType === 'Escalation')).toHaveLength(0);

    replacement = await createRequestWorker({
      address: h.config.temporalAddress, namespace: h.config.temporalNamespace, taskQueue: h.config.taskQueue,
      deps: { orm: h.orm, mailer: createMailer(h.sink.url), pdf: h.pdf, files: h.files, config: h.config },
      workflowBundlePath: inject('workflowBundlePath'),
    });
    replacementRunning = replacement.run();
    await h.sink.waitFor((m) => m.subject === `Request ${number} is waiting for review`, 30_000);
    await pause(2 * DAY_MS); // a duplicate would arrive by now
    expect(mails(`Request ${number} is waiting for review`)).toHaveLength(1);
    expect((await audit(id)).filter((r) => r.activityType === 'Escalation')).toHaveLength(1);
  });
});
