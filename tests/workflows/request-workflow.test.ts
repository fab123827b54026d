/**
 * The request workflow on the real Temporal dev server with real activities: PostgreSQL, the SMTP sink, Chromium.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { RequestActivitySchema, RequestSchema, RequestEffectSchema } from '../../db/entities';
import { AUTOMATED_EMAIL_ACTOR, DEV_REQUESTER_EMAIL } from './fixtures-constants';
import { requestWorkflowId, stateQuery } from '../../workflows/request.messages';
import { officeToday } from '../../domain';
import { call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';
import { eventually } from '../support/eventually';
import { createActivities } from '../../activities';
import { createMailer } from '../../activities/mailer';
import { Worker } from '@temporalio/worker';

const run = promisify(execFile);

let h: Harness;
let requester: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness();
  requester = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'coi-pdf-'));
  const file = path.join(dir, 'letter.pdf');
  await writeFile(file, bytes);
  try {
    const { stdout } = await run('pdftotext', ['-layout', file, '-']);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('a credentialing request through its workflow', () => {
  let id: number;
  let number: number;

  it('submit numbers the request, saves Submitted with its date, and emails Submission Confirmation', async () => {
    id = await credentialingDraft(h, requester);
    const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('Submitted');
    expect(res.body.requestNumber).toBeGreaterThanOrEqual(50001);
    expect(res.body.submitDate).toBeTruthy();
    number = res.body.requestNumber;

    const mail = await h.sink.waitFor((m) => m.subject.includes(String(number)), 60_000);
    expect(mail.to).toEqual([DEV_REQUESTER_EMAIL]);
    expect(mail.subject).toContain('received');
    expect(mail.text).toContain('Avery Nguyen');

    const audit = await eventually(async () => {
      const rows = await h.orm.em.fork().find(RequestActivitySchema, { requestId: id }, { orderBy: { id: 'asc' } });
      return rows.some((a) => a.activityText === '"Submission Confirmation" email sent') && rows;
    });
    expect(audit.find((a) => a.activityType === 'Submission')?.performedBy).toBe('Casey Requester');
  });

  it('refuses Approved without the verified box, and changes nothing', async () => {
    const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Approved', verified: false });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'BadRequest', message: 'Verification required', code: 400, className: 'bad-request' });
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(row.status).toBe('Submitted');
  });

  it('approval saves status and completion date, generates the letter and emails it as an attachment', async () => {
    const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Approved', verified: true });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('Approved');
    expect(res.body.completedDate).toBeTruthy();

    const mail = await h.sink.waitFor((m) => m.subject.includes(`${number} approved`), 60_000);
    expect(mail.to).toEqual([DEV_REQUESTER_EMAIL]);
    expect(mail.attachments).toHaveLength(1);
    const [letter] = mail.attachments;
    expect(letter.contentType).toBe('application/pdf');
    expect(Buffer.from(letter.content).subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(letter.content);
    expect(text).toContain('Avery Nguyen');
    expect(text).toContain('$2,565,400.00'); // 2024-25 limit per claim (the request runs to 12/31/2024)
    expect(text).toContain('$5,130,700.00');

    const detail = await call(h, requester, 'GET', `/api/v1/requests/${id}`);
    const stored = detail.body.documents.find((d: any) => d.mimeType === 'application/pdf' && d.name.startsWith('Claim History'));
    expect(stored).toBeTruthy();
    const download = await call(h, requester, 'GET', `/api/v1/documents/${id}/${encodeURIComponent(stored.name)}`);
    expect(download.status).toBe(200);
    expect(download.raw.rawPayload.equals(Buffer.from(letter.content))).toBe(true);

    const audit = await eventually(async () => {
      const res = await call(h, admin, 'GET', `/api/v1/request-activity?requestId=${id}&$sort[date]=1`);
      return res.body.data.some((a: any) => a.activityType === 'Email' && a.activityText.includes('Approved')) && res;
    });
    const approvedEmail = audit.body.data.find((a: any) => a.activityText === '"Credentialing Request Approved" email sent');
    expect(approvedEmail).toMatchObject({ performedBy: AUTOMATED_EMAIL_ACTOR, channel: 'Email', recipients: DEV_REQUESTER_EMAIL });
    expect(audit.body.data.map((a: any) => a.activityText)).toContain('Status changed from "Submitted" to "Approved"');
  });

  it('refuses an illegal change (Pending Additional Information on Approved, without Reopen) as BadRequest', async () => {
    const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Pending Additional Information', verified: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      name: 'BadRequest', code: 400, className: 'bad-request',
      message: 'A request in status "Approved" cannot be changed to "Pending Additional Information"',
    });
    expect(Object.keys(res.body).sort()).toEqual(['className', 'code', 'data', 'errors', 'message', 'name']);
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(row.status).toBe('Approved');
    const state = await h.temporal.workflow.getHandle(requestWorkflowId(number)).query(stateQuery);
    expect(state.status).toBe('Approved');
  });

  it('operators find the workflow by RequestNumber; its history holds the submit and the status change', async () => {
    const found = await eventually(async () => { // visibility is eventually consistent
      const ids: string[] = [];
      for await (const wf of h.temporal.workflow.list({ query: `RequestNumber=${number}` })) ids.push(wf.workflowId);
      return ids.length > 0 && ids;
    }, 60_000, 250);
    expect(found).toEqual([requestWorkflowId(number)]); // one run: a refused command on a finished request wakes nothing
    const history = await h.temporal.workflow.getHandle(requestWorkflowId(number)).fetchHistory();
    const updates = (history.events ?? [])
      .filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)
      .map((e) => e.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest!.input!.name);
    // The administrator's Save is one update, whatever it changes (status, verification, notes, release).
    expect(updates).toEqual(['submit', 'adminSave']);
  });

  it('its recorded history replays deterministically on the current workflow code', async () => {
    const history = await h.temporal.workflow.getHandle(requestWorkflowId(number)).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, requestWorkflowId(number));
  });

  it('reopen sets Draft and clears the completion date; resubmitting keeps the number', async () => {
    const reopened = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Draft' });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ status: 'Draft', completedDate: null, requestNumber: number });
    const again = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(again.body).toMatchObject({ status: 'Submitted', requestNumber: number });
  });
});

describe('an administrator\'s Save', () => {
  const acceptedUpdates = async (number: number) => ((await h.temporal.workflow.getHandle(requestWorkflowId(number)).fetchHistory()).events ?? [])
    .filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)
    .map((e) => e.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest!.input!.name);

  it('is one workflow update, whatever it changes: release, verification, notes and status land together, written by the workflow', async () => {
    const id = await credentialingDraft(h, requester);
    const number = (await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' })).body.requestNumber as number;
    const today = officeToday(h.config.clockPolicy.calendar.timeZone);
    const { version } = (await call(h, admin, 'GET', `/api/v1/requests/${id}`)).body as { version: number };
    const save = { status: 'Approved', verified: true, internalNotes: 'Release checked by phone.', signedReleaseDate: today, version };
    const saved = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, save);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ status: 'Approved', verified: true, internalNotes: 'Release checked by phone.' });
    expect(String(saved.body.signedReleaseDate).slice(0, 10)).toBe(today);
    expect(await acceptedUpdates(number)).toEqual(['submit', 'adminSave']);
    const audit = (await h.orm.em.fork().find(RequestActivitySchema, { requestId: id }, { orderBy: { id: 'asc' } })).map((a) => a.activityType);
    expect(audit.filter((t) => t === 'Signed Release' || t === 'Status Change')).toEqual(['Signed Release', 'Status Change']);

    // Pressed again on the same page (a retry after a lost answer): answered as the first, nothing sent or written twice.
    const again = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, save);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ status: 'Approved' });
    expect(await acceptedUpdates(number)).toEqual(['submit', 'adminSave']);
    expect(await h.orm.em.fork().count(RequestActivitySchema, { requestId: id, activityType: 'Status Change' })).toBe(1);
  });

  it('without a status change is one update too: the workflow writes the notes and the verification, audited as a field edit', async () => {
    const id = await credentialingDraft(h, requester);
    const number = (await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' })).body.requestNumber as number;
    const saved = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { verified: true, internalNotes: 'Waiting for the clinic.' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ status: 'Submitted', verified: true, internalNotes: 'Waiting for the clinic.' });
    expect(await acceptedUpdates(number)).toEqual(['submit', 'adminSave']);
    const edit = await h.orm.em.fork().findOneOrFail(RequestActivitySchema, { requestId: id, activityType: 'Field Edit' });
    expect(edit).toMatchObject({ activityText: 'Edited "Verified", "Internal Notes"', performedByUserId: admin.user.id });
    // Nothing changed: nothing sent.
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { verified: true, internalNotes: 'Waiting for the clinic.' })).status).toBe(200);
    expect(await acceptedUpdates(number)).toEqual(['submit', 'adminSave']);
  });
});

describe('activities are idempotent', () => {
  const statusInput = (id: number, key: string) => ({
    key, requestId: id, previousStatus: 'Submitted' as const, status: 'Pending Additional Information' as const,
    at: new Date().toISOString(), submitted: false, completedDate: null, actor: { name: 'Test Admin', email: 't@example.com' },
    commandId: null, effect: { kind: 'email' as const, templateTitle: 'Additional Information Needed' },
  });

  it('a retried status record writes one audit row and one effect', async () => {
    const id = await credentialingDraft(h, requester);
    const activities = createActivities({ orm: h.orm, mailer: createMailer(h.sink.url), pdf: h.pdf, files: h.files, config: h.config });
    const input = statusInput(id, `test-status-${id}:run:1`);
    await activities.recordStatus(input);
    await activities.recordStatus(input);
    const em = h.orm.em.fork();
    // (the draft's document has an audit row of its own)
    expect(await em.count(RequestActivitySchema, { requestId: id, activityType: { $ne: 'Document' } })).toBe(1);
    expect(await em.count(RequestEffectSchema, { requestId: id })).toBe(1);
  });

  it('two attempts of one status record at once (an old attempt still alive beside its retry) write it once', async () => {
    const id = await credentialingDraft(h, requester);
    const activities = createActivities({ orm: h.orm, mailer: createMailer(h.sink.url), pdf: h.pdf, files: h.files, config: h.config });
    const input = statusInput(id, `test-status-race-${id}:run:1`);
    const before = (await h.orm.em.fork().findOneOrFail(RequestSchema, id)).version;
    await Promise.all([activities.recordStatus(input), activities.recordStatus(input), activities.recordStatus(input)]);
    const em = h.orm.em.fork();
    expect(await em.count(RequestActivitySchema, { requestId: id, activityType: { $ne: 'Document' } })).toBe(1);
    expect(await em.count(RequestEffectSchema, { requestId: id })).toBe(1);
    const row = await em.findOneOrFail(RequestSchema, id);
    expect(row.status).toBe('Pending Additional Information');
    // one write, one version: an administrator's page opened before it gets a conflict, not a silent overwrite
    expect(row.version).toBe(before + 1);
  });

  it('a retried email activity sends once and writes one audit row', async () => {
    const id = await credentialingDraft(h, requester);
    const mailer = createMailer(h.sink.url);
    const activities = createActivities({ orm: h.orm, mailer, pdf: h.pdf, files: h.files, config: h.config });
    const key = `test-idempotency-${id}:run:1`;
    await activities.recordStatus(statusInput(id, key));
    const first = await activities.sendEffectEmail({ key });
    const second = await activities.sendEffectEmail({ key });
    mailer.close();
    expect(first.alreadySent).toBe(false);
    expect(second.alreadySent).toBe(true);
    // The first send's message, parsed by the sink: the second send returned without sending, so it is the only one.
    await h.sink.waitFor((m) => Boolean(m.messageId?.includes(`test-idempotency-${id}`)), 60_000);
    expect(h.sink.messages().filter((m) => m.messageId?.includes(`test-idempotency-${id}`))).toHaveLength(1);
    const em = h.orm.em.fork();
    expect(await em.count(RequestActivitySchema, { requestId: id, activityType: 'Email' })).toBe(1);
  });
});
