/**
 * Records a history of each thing a request's workflow does (and of the account-email, wake-up and export workflows),
 * for tests/workflows/replay.test.ts: saved histories replayed on every change prove running workflows still replay.
 * Run by `npm run record:histories`; skipped in `npm test`.
 *
 * Never overwrites: a file that exists is kept as it was recorded (it stands for the runs of its code). After a change
 * guarded by a new `patched('<id>')` gate, set SHAPE to '<id>' and record again: the new files sit beside the old,
 * and both must replay (docs/OPERATIONS.md "The first change to a workflow after a release"). Days are compressed
 * (2 s) so that the clocks fire within the recording.
 */
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentSchema, PasswordResetSchema, RequestExportSchema, RequestSchema } from '../../db/entities';
import { DEV_REQUESTER } from '../../db/seed-data';
import { STATUS } from '../../domain';
import { ensureTemporalServer, freePort, type TemporalServerHandle } from '../../devtools/temporal/dev-server';
import { WORKFLOW_SOURCE } from '../../worker/request-worker';
import { passwordResetEmailWorkflowId } from '../../workflows/account-email.messages';
import { exportWorkflowId } from '../../workflows/export.messages';
import { requestWorkflowId } from '../../workflows/request.messages';
import { WAKE_UP_SWEEP_WORKFLOW, WAKE_UP_WORKFLOW } from '../../workflows/wake-up.messages';
import { INSTANT_DIGEST_WORKFLOW } from '../../workflows/instant-digest.messages';
import { inboundWorkflowIdOf } from '../../domain/inbound-mail';
import { inboundRow, processed, replyAbove, replyAddressOf, replyTransport, startReplyListener } from '../support/inbound-mail-helpers';
import { call, certificateDraft, credentialingDraft, loginAdmin, loginEmployee, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { ownDatabase } from '../support/own-database';
import { startHarness, type Harness } from '../support/portal-harness';
import { saveHistory } from './history-files';

/**
 * The prefix of the request workflow's history files: the shape the code runs now. `base`: the workflow as released,
 * without a `patched()` gate. A change behind `patched('<id>')` records under '<id>'.
 */
const SHAPE = 'base';
const DIR = path.join(import.meta.dirname, 'histories');
const recording = !!process.env.RECORD_HISTORIES;

let h: Harness;
let database: Awaited<ReturnType<typeof ownDatabase>>;
let requester: Session;
let employee: Session;
let admin: Session;

beforeAll(async () => {
  if (!recording) return;
  database = await ownDatabase('record');
  h = await startHarness({
    databaseUrl: database.url,
    env: { CLOCK_DAY_SECONDS: '2', REMINDER_BUSINESS_DAYS: '1,2', AUTO_CLOSE_BUSINESS_DAYS: '3', ESCALATION_BUSINESS_DAYS: '2' },
  });
  [requester, employee, admin] = await Promise.all([loginRequester(h), loginEmployee(h), loginAdmin(h)]);
});
afterAll(async () => {
  await h?.stop();
  await database?.drop();
});

/** Saves the workflow's (latest run's) history as `<name>.json` unless that file exists, and replays it. */
async function record(workflowId: string, name: string) {
  const handle = h.temporal.workflow.getHandle(workflowId);
  await eventually(async () => ((await handle.describe()).status.name === 'COMPLETED' ? true : undefined), 90_000);
  const history = await handle.fetchHistory();
  const written = await saveHistory(path.join(DIR, `${name}.json`), history);
  console.log(written ? `[record] wrote ${name}.json (${history.events?.length} events)` : `[record] kept ${name}.json (recorded before; never overwritten)`);
  await Worker.runReplayHistory(WORKFLOW_SOURCE, history, workflowId);
}

async function submit(session: Session, id: number): Promise<number> {
  const res = await call(h, session, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.requestNumber as number;
}
async function decide(id: number, status: string, extra: Record<string, unknown> = {}) {
  const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status, verified: true, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
const mailed = (number: number, text: string) => h.sink.waitFor((m) => m.subject.includes(String(number)) && m.subject.includes(text), 60_000);

describe.skipIf(!recording)('record a history of each thing the workflows do', () => {
  // Recorded under the gate that added it (a run of the code before it never decides instantly).
  it('a certificate issued instantly by the office\'s rule: decided, approved by the rule, printed and emailed', async () => {
    const rule = await call(h, admin, 'POST', '/api/v1/instant-rules', {
      name: 'Standard events', kinds: ['Event'], conditions: { combinator: 'and', rules: [{ field: 'eventPatientCare', operator: '=', value: 'No' }] },
    });
    await call(h, admin, 'PUT', `/api/v1/instant-rules/${rule.body.id}/enabled`, { enabled: true });
    await call(h, admin, 'PUT', '/api/v1/instant-settings', { enabled: true });
    try {
      const number = await submit(employee, await certificateDraft(h, employee, 'Event', { eventPatientCare: 'No', eventPatientCareDetail: '' }));
      await mailed(number, 'approved: certificate of insurance');
      await record(requestWorkflowId(number), 'instant-certificates-certificate-instant-issue');
    } finally {
      await call(h, admin, 'PUT', '/api/v1/instant-settings', { enabled: false });
    }
  }, 120_000);

  it('a certificate approved: the certificate printed and emailed', async () => {
    const id = await certificateDraft(h, employee, 'Rental');
    const number = await submit(employee, id);
    await decide(id, STATUS.approved);
    await mailed(number, 'certificate of insurance');
    await record(requestWorkflowId(number), `${SHAPE}-certificate-rental-approved`);
  });

  it('a contract approved with a letter of intent', async () => {
    const id = await certificateDraft(h, employee, 'Contracts/Lease');
    const number = await submit(employee, id);
    await decide(id, STATUS.approvedWithLetterOfIntent);
    await mailed(number, 'letter of intent');
    await record(requestWorkflowId(number), `${SHAPE}-certificate-letter-of-intent`);
  });

  it('escalated while waiting for review, a discussion and an on-demand email, then approved', async () => {
    const id = await credentialingDraft(h, requester);
    const number = await submit(requester, id);
    await mailed(number, 'waiting for review'); // the escalation clock fired (2 compressed business days)
    const posted = await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Status', message: 'Any news on this request?' });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    const sent = await call(h, admin, 'POST', '/api/v1/send-email', { requestId: id, templateTitle: 'Additional Information Needed' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    await decide(id, STATUS.approved);
    await mailed(number, 'approved');
    await record(requestWorkflowId(number), `${SHAPE}-credentialing-escalated-discussion-send-email-approved`);
  });

  it('a signed release recorded, approved, reopened, resubmitted and approved again (the reopened run)', async () => {
    const id = await credentialingDraft(h, requester);
    const number = await submit(requester, id);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: h.config.clockPolicy.calendar.timeZone }).format(new Date());
    await decide(id, STATUS.submitted, { signedReleaseDate: today });
    await decide(id, STATUS.approved);
    await eventually(async () => ((await h.temporal.workflow.getHandle(requestWorkflowId(number)).describe()).status.name === 'COMPLETED' ? true : undefined), 60_000);
    await record(requestWorkflowId(number), `${SHAPE}-credentialing-signed-release-approved`);
    const reopened = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.draft });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    await submit(requester, id);
    await decide(id, STATUS.approved);
    await eventually(async () => (h.sink.messages().filter((m) => m.subject.includes(String(number)) && m.subject.includes('approved')).length >= 2 ? true : undefined), 60_000);
    await record(requestWorkflowId(number), `${SHAPE}-credentialing-reopened-resubmitted-approved`);
  });

  it('sent back for more information, resubmitted (the requester\'s confirmation beside the administrators\' email), approved', async () => {
    const id = await credentialingDraft(h, requester);
    const number = await submit(requester, id);
    await decide(id, STATUS.pendingAdditionalInformation);
    await submit(requester, id);
    await mailed(number, 'resubmitted');
    await decide(id, STATUS.approved);
    await mailed(number, 'approved');
    await record(requestWorkflowId(number), `${SHAPE}-credentialing-additional-information-resubmitted-approved`);
  });

  it('sent back for more information, reminded twice and closed automatically (the clocks)', async () => {
    const id = await credentialingDraft(h, requester);
    const number = await submit(requester, id);
    await decide(id, STATUS.pendingAdditionalInformation);
    await mailed(number, 'closed'); // two reminders, then the auto-close (3 compressed business days)
    await record(requestWorkflowId(number), `${SHAPE}-credentialing-reminders-auto-closed`);
  });

  it('a certificate approved, then revoked (a later run)', async () => {
    const id = await certificateDraft(h, employee, 'Rental');
    const number = await submit(employee, id);
    await decide(id, STATUS.approved);
    await mailed(number, 'certificate of insurance');
    const listed = await call(h, admin, 'GET', `/api/v1/requests/${id}/certificates`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const code = (listed.body.items as Array<{ code: string }>)[0].code;
    const revoked = await call(h, admin, 'POST', `/api/v1/requests/${id}/certificates/${code}/revoke`, { reason: 'Coverage cancelled', note: 'The rental was cancelled.' });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    await mailed(number, 'certificate revoked');
    await record(requestWorkflowId(number), `${SHAPE}-certificate-revoked`);
  });

  it('letters generated again after the decision (generate-pdfs)', async () => {
    const id = await credentialingDraft(h, requester);
    const number = await submit(requester, id);
    await decide(id, STATUS.approved);
    await mailed(number, 'approved');
    const generated = await call(h, admin, 'POST', '/api/v1/generate-pdfs', { requestId: id });
    expect(generated.status, JSON.stringify(generated.body)).toBeLessThan(300);
    await eventually(async () => ((await h.orm.em.fork().count(DocumentSchema, { requestId: id, idempotencyKey: { $ne: null } })) >= 2 ? true : undefined), 60_000);
    await record(requestWorkflowId(number), `${SHAPE}-credentialing-generate-letter`);
  });

  it('woken by a new policy year (the request and the wake-up workflow), then approved', async () => {
    const day = (d: string) => `${d}T11:00:00.000Z`;
    const id = await certificateDraft(h, employee, 'Event', { eventStartDate: day('2081-08-01'), eventEndDate: day('2081-08-03') });
    const number = await submit(employee, id);
    await decide(id, STATUS.pendingNewPolicyYear);
    const added = await call(h, admin, 'POST', '/api/v1/policies', { startDate: '07/01/2081', endDate: '06/30/2082', policyNumber: 'UHS-PL-2081-82', limitClaim: '3000000', annualAggregate: '6000000' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const wakeId = `record-wake-policy-${added.body.id}`;
    await h.temporal.workflow.execute(WAKE_UP_WORKFLOW, { taskQueue: h.config.taskQueue, workflowId: wakeId, args: [{ reason: 'policy-year', sourceId: added.body.id }] });
    await eventually(async () => ((await h.orm.em.fork().findOneOrFail(RequestSchema, id)).status === STATUS.submitted ? true : undefined), 30_000);
    await record(wakeId, 'wake-up-policy-year');
    await decide(id, STATUS.approved);
    await mailed(number, 'certificate of insurance');
    await record(requestWorkflowId(number), `${SHAPE}-certificate-woken-by-policy-year-approved`);
  });

  it('an administrator\'s whole Save (signed release, verification, notes and approval) as one update', async () => {
    const id = await credentialingDraft(h, requester);
    const number = await submit(requester, id);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: h.config.clockPolicy.calendar.timeZone }).format(new Date());
    await decide(id, STATUS.approved, { signedReleaseDate: today, internalNotes: 'Release checked by phone.' });
    await mailed(number, 'approved');
    await record(requestWorkflowId(number), `${SHAPE}-credentialing-admin-save-approved`);
  });

  it('notes saved without a status change, then approved', async () => {
    const id = await credentialingDraft(h, requester);
    const number = await submit(requester, id);
    const saved = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { verified: true, internalNotes: 'Waiting for the clinic.' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await decide(id, STATUS.approved);
    await mailed(number, 'approved');
    await record(requestWorkflowId(number), `${SHAPE}-credentialing-admin-fields-then-approved`);
  });

  it('a reply by email posted (the inbound-mail workflow)', async () => {
    const id = await credentialingDraft(h, requester);
    const number = await submit(requester, id);
    const mail = await h.sink.waitFor((m) => m.to.includes(DEV_REQUESTER.email) && m.subject.includes(String(number)), 30_000);
    const listener = await startReplyListener(h);
    const send = replyTransport(listener);
    try {
      const messageId = `<recorded-reply-${Date.now()}@phone.example>`;
      await send.sendMail({ from: DEV_REQUESTER.email, to: await replyAddressOf(h, mail, number), subject: `Re: ${mail.subject}`, messageId, text: replyAbove('Thank you.', mail) });
      expect(await processed(h, messageId)).toBe('posted');
      const row = (await inboundRow(h, messageId))!;
      await record(inboundWorkflowIdOf(row.dedupKey), 'inbound-mail-posted');
    } finally {
      send.close();
      await listener.close();
    }
  });

  it('a certificate renewed for the next policy year after asking its requester (a renewal run)', async () => {
    const id = await certificateDraft(h, employee, 'Fleet', { vehicleIdNumber: '1FTBR1C80MKA77777' });
    const number = await submit(employee, id);
    await decide(id, STATUS.approved);
    await mailed(number, 'certificate of insurance');
    const list = await call(h, admin, 'GET', '/api/v1/renewals/candidates');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const answerBy = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const started = await call(h, admin, 'POST', '/api/v1/renewal-runs', {
      policyYearId: list.body.policyYear.id, mode: 'ask', answerBy, from: list.body.window.from, to: list.body.window.to, requestIds: [id],
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const question = await mailed(number, 'do you still need this certificate');
    await record(requestWorkflowId(number), `${SHAPE}-certificate-asked-renewal`);
    const token = /\/renewal-answer\/([A-Za-z0-9_-]+)\?answer=yes/.exec(question.text)![1];
    expect((await call(h, null, 'POST', `/api/v1/renewal-answers/${token}`, { answer: 'yes' })).status).toBe(200);
    await mailed(number, 'certificate renewed');
    await record(requestWorkflowId(number), `${SHAPE}-certificate-renewed`);
    const run = await h.orm.em.fork().getKysely<{ renewal_runs: { id: number; workflow_id: string } }>()
      .selectFrom('renewal_runs').select('workflow_id').where('id', '=', started.body.id).executeTakeFirstOrThrow();
    await record(run.workflow_id, 'renewal-run-asked-renewed');
  });

  it('the wake-up sweep (its Schedule\'s workflow)', async () => {
    const sweepId = `record-wake-sweep-${Date.now()}`;
    await h.temporal.workflow.execute(WAKE_UP_SWEEP_WORKFLOW, { taskQueue: h.config.taskQueue, workflowId: sweepId, args: [] });
    await record(sweepId, 'wake-up-sweep');
  });

  it('the daily digest of instant certificates (its Schedule\'s workflow)', async () => {
    const digestId = `record-instant-digest-${Date.now()}`;
    await h.temporal.workflow.execute(INSTANT_DIGEST_WORKFLOW, { taskQueue: h.config.taskQueue, workflowId: digestId, args: [{}] });
    await record(digestId, 'instant-digest');
  });

  it('an export written by its workflow', async () => {
    const started = await call(h, admin, 'POST', '/api/v1/export-requests', { filename: 'coi_export_recorded' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const row = await h.orm.em.fork().findOneOrFail(RequestExportSchema, started.body.id);
    await record(exportWorkflowId(row.id, row.storedName), 'export-done');
  });

  it('a password reset link (the account-email workflow)', async () => {
    expect((await call(h, null, 'POST', '/api/v1/password-reset', { email: DEV_REQUESTER.email })).status).toBeLessThan(300);
    const reset = await eventually(() => h.orm.em.fork().findOne(PasswordResetSchema, { userId: requester.user.id }), 60_000);
    await h.sink.waitFor((m) => m.to.includes(DEV_REQUESTER.email) && /password/i.test(m.subject), 30_000);
    await record(passwordResetEmailWorkflowId(reset.id), 'account-email-password-reset');
  });
});

/**
 * Continue-as-new: Temporal suggests it after thousands of events; a server of this block's own suggests it after
 * 60, so a request with a few discussion messages continues as new while waiting for review, and the next run (which
 * takes over the clocks and the request's state) approves it. Both runs are recorded.
 */
describe.skipIf(!recording)('record the continue-as-new shape', () => {
  let server: TemporalServerHandle;
  let small: Harness;
  let database: Awaited<ReturnType<typeof ownDatabase>>;

  beforeAll(async () => {
    server = await ensureTemporalServer({
      address: `127.0.0.1:${await freePort()}`, dynamicConfig: ['limit.historyCount.suggestContinueAsNew=60'],
    });
    database = await ownDatabase('record_can');
    small = await startHarness({ databaseUrl: database.url, temporalAddress: server.address });
  }, 120_000);
  afterAll(async () => {
    await small?.stop();
    await server?.stop();
    await database?.drop();
  });

  it('a request continued as new while waiting for review, then approved in the next run', async () => {
    const [who, boss] = await Promise.all([loginRequester(small), loginAdmin(small)]);
    const id = await credentialingDraft(small, who);
    const submitted = await call(small, who, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const workflowId = requestWorkflowId(submitted.body.requestNumber as number);
    const runs = async () => {
      const found = [];
      for await (const run of small.temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) found.push(run);
      return found;
    };
    // After each message, wait until the workflow has handled it (no workflow task or activity pending), then see
    // whether it continued as new (its latest run is another).
    const handle = small.temporal.workflow.getHandle(workflowId);
    const firstRunId = (await handle.describe()).runId;
    const quiet = async () => {
      const described = await handle.describe();
      return !described.raw.pendingWorkflowTask && !described.raw.pendingActivities?.length && described;
    };
    for (let n = 1; n <= 12 && (await eventually(quiet, 60_000)).runId === firstRunId; n += 1) {
      const posted = await call(small, who, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Status', message: `Any news on this request? (${n})` });
      expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    }
    const first = await eventually(async () => (await runs()).find((r) => r.status.name === 'CONTINUED_AS_NEW'), 30_000);
    const approved = await call(small, boss, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: true });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await small.sink.waitFor((m) => m.subject.includes(String(submitted.body.requestNumber)) && m.subject.includes('approved'), 60_000);

    const firstHistory = await small.temporal.workflow.getHandle(workflowId, first.runId).fetchHistory();
    const name = `${SHAPE}-credentialing-discussions-continued-as-new`;
    const written = await saveHistory(path.join(DIR, `${name}.json`), firstHistory);
    console.log(written ? `[record] wrote ${name}.json (${firstHistory.events?.length} events)` : `[record] kept ${name}.json`);
    await Worker.runReplayHistory(WORKFLOW_SOURCE, firstHistory, workflowId);

    await eventually(async () => ((await handle.describe()).status.name === 'COMPLETED' ? true : undefined), 90_000);
    const next = await handle.fetchHistory();
    const nextName = `${SHAPE}-credentialing-after-continue-as-new-approved`;
    const nextWritten = await saveHistory(path.join(DIR, `${nextName}.json`), next);
    console.log(nextWritten ? `[record] wrote ${nextName}.json (${next.events?.length} events)` : `[record] kept ${nextName}.json`);
    await Worker.runReplayHistory(WORKFLOW_SOURCE, next, workflowId);
  }, 240_000);
});
