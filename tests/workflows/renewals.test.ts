/**
 * Renewal season on real parts (PostgreSQL, Temporal, Chromium, SMTP sink): the Renewals list judges current
 * certificates by the rules of domain/renewals.ts, a run refuses to start without the new policy year, a run renews
 * each certificate once (two overlapping runs included) with a signed letter that supersedes the old code and one
 * email to the requester and the holder, pause and cancel hold and end a run between batches, the ask-first path
 * renews a yes, leaves out a no and a silence, and the result downloads as a workbook.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssuedLetterSchema } from '../../db/entities';
import { DEV_INTERNAL_REQUESTER } from '../../db/seed-data';
import { kysely } from '../../db/kysely';
import { formatVerificationCode, RENEWAL_MESSAGES, STATUS } from '../../domain';
import { call, certificateDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { pdfsig } from '../support/pdfsig';
import { processed, replyAbove, replyAddressOf, replyTransport, startReplyListener } from '../support/inbound-mail-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let employee: Session;
let admin: Session;

// Small batches, so that a pause lands while a run still has work (the pace is the default).
beforeAll(async () => {
  h = await startHarness({ env: { RENEWAL_MAX_WAITING: '2' } });
  employee = await loginEmployee(h);
  admin = await loginAdmin(h);
  EMPLOYEE_EMAIL = DEV_INTERNAL_REQUESTER.email.toLowerCase();
}, 120_000);
afterAll(async () => { await h?.stop(); });

const db = () => kysely(h.orm.em.fork());
const HOLDER_EMAIL = 'certificates@holder.example';
let EMPLOYEE_EMAIL = '';

async function approved(subtype: string, overrides: Record<string, unknown> = {}): Promise<{ id: number; number: number }> {
  const id = await certificateDraft(h, employee, subtype, { certificateHolderEmail: HOLDER_EMAIL, ...overrides });
  const sub = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  const number = sub.body.requestNumber as number;
  const decided = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.approved, verified: true });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  await h.sink.waitFor((m) => m.subject === `Request ${number} approved: certificate of insurance`, 90_000);
  return { id, number };
}

const candidates = async (query = '') => {
  const res = await call(h, admin, 'GET', `/api/v1/renewals/candidates${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const rowOf = (list: { data: Array<{ requestId: number }> }, id: number) => list.data.find((c) => c.requestId === id) as unknown as Record<string, unknown> & { verdict: string; reason: string };

async function finished(runId: number, timeoutMs = 120_000) {
  return eventually(async () => {
    const res = await call(h, admin, 'GET', `/api/v1/renewal-runs/${runId}`);
    return ['finished', 'cancelled'].includes(res.body.state) && res.body.progress.waiting === 0 && res.body.progress.remaining === 0 && res.body.progress.asked === 0 && res.body.progress;
  }, timeoutMs, 100);
}

const renewedMails = (number: number) => h.sink.messages().filter((m) => m.subject === `Request ${number}: certificate renewed`);
const currentCertificates = (requestId: number) => h.orm.em.fork().find(IssuedLetterSchema, { requestId }, { orderBy: { id: 'asc' } });

describe('which certificates renew', () => {
  it('judges each current certificate ending with the year by its rules, with a reason; a mark overrides them', async () => {
    const fleet = await approved('Fleet');
    const lease = await approved('Contracts/Lease', { leaseExpirationDate: '2029-06-30T11:00:00.000Z' });
    const endingLease = await approved('Contracts/Lease'); // expires with the year
    const property = await approved('Property');
    const list = await candidates();
    expect(list.refusal).toBeNull();
    expect(list.policyYear.label).toMatch(/^\d{4}–\d{4}$/);
    expect(rowOf(list, fleet.id)).toMatchObject({ verdict: 'renew', reason: 'Fleet vehicle still in service' });
    expect(rowOf(list, lease.id)).toMatchObject({ verdict: 'renew', reason: 'Lease runs to 06/30/2029' });
    expect(rowOf(list, endingLease.id)).toMatchObject({ verdict: 'notRenewing' });
    expect(rowOf(list, endingLease.id).reason).toMatch(/^Lease expires /);
    expect(rowOf(list, property.id)).toMatchObject({ verdict: 'renew', reason: 'Standing property certificate' });
    expect(rowOf(list, fleet.id).newPeriod).toEqual({ from: list.policyYear.startDate, to: list.policyYear.endDate });

    expect((await call(h, admin, 'PUT', `/api/v1/requests/${property.id}/renewal-preference`, { preference: 'never' })).status).toBe(200);
    expect((await call(h, admin, 'PUT', `/api/v1/requests/${endingLease.id}/renewal-preference`, { preference: 'auto' })).status).toBe(200);
    const marked = await candidates();
    expect(rowOf(marked, property.id)).toMatchObject({ verdict: 'notRenewing', reason: 'Marked "never renew"' });
    expect(rowOf(marked, endingLease.id)).toMatchObject({ verdict: 'renew' });
    expect(rowOf(marked, endingLease.id).reason).toMatch(/^Marked "renews automatically"/);
    // Marks are the office's: a requester may not set one.
    expect((await call(h, employee, 'PUT', `/api/v1/requests/${fleet.id}/renewal-preference`, { preference: 'never' })).status).toBe(403);
    // Leave the marked ones out of the runs below.
    await call(h, admin, 'PUT', `/api/v1/requests/${endingLease.id}/renewal-preference`, { preference: 'never' });
  }, 240_000);

  it('no policy year after the current one: the page says so and a run refuses to start', async () => {
    const list = await candidates();
    const next = list.policyYear;
    const saved = await db().selectFrom('policies').selectAll().where('id', '=', next.id).executeTakeFirstOrThrow();
    await db().deleteFrom('policies').where('id', '=', next.id).execute();
    try {
      const without = await candidates();
      expect(without.refusal).toBe(RENEWAL_MESSAGES.noNextYear);
      expect(without.data).toEqual([]);
      const start = await call(h, admin, 'POST', '/api/v1/renewal-runs', { policyYearId: next.id, mode: 'renew', from: list.window.from, to: list.window.to });
      expect(start.status).toBe(400);
      expect(start.body.message).toBe('This policy year does not exist.');
    } finally {
      await db().insertInto('policies').values(saved).execute();
    }
  });
});

describe('a run', () => {
  it('renews each certificate once, even with two runs at once: a signed letter for the new year, the old code Superseded, one email to requester and holder', async () => {
    const list = await candidates();
    const renewable = list.data.filter((c: { verdict: string }) => c.verdict === 'renew').map((c: { requestId: number }) => c.requestId);
    expect(renewable.length).toBeGreaterThanOrEqual(2);
    const body = { policyYearId: list.policyYear.id, mode: 'renew', from: list.window.from, to: list.window.to, requestIds: renewable };
    const [a, b] = await Promise.all([call(h, admin, 'POST', '/api/v1/renewal-runs', body), call(h, admin, 'POST', '/api/v1/renewal-runs', body)]);
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect([201, 400]).toContain(b.status); // the second may find nothing left to renew
    const progressA = await finished(a.body.id);
    const progressB = b.status === 201 ? await finished(b.body.id) : { done: 0, failed: 0 };
    expect(progressA.failed + progressB.failed).toBe(0);
    expect(progressA.done + progressB.done).toBe(renewable.length);

    for (const requestId of renewable) {
      const letters = await currentCertificates(requestId);
      expect(letters).toHaveLength(2);
      const [old, renewed] = letters;
      expect(old.supersededById).toBe(renewed.id);
      expect(renewed.facts.kind === 'certificate' && renewed.facts.coveragePeriod).toEqual({ from: list.policyYear.startDate, to: list.policyYear.endDate });
      const verified = await call(h, admin, 'GET', `/api/v1/verify/${formatVerificationCode(old.verificationCode)}`);
      expect(verified.body.status).toBe('Superseded');
      const fresh = await call(h, admin, 'GET', `/api/v1/verify/${formatVerificationCode(renewed.verificationCode)}`);
      expect(fresh.body.status).toBe('Valid');
      const number = (await db().selectFrom('requests').select('request_number').where('id', '=', requestId).executeTakeFirstOrThrow()).request_number!;
      // One email to each: the requester and the holder.
      const mails = renewedMails(number);
      expect(mails.flatMap((m) => m.envelope.to).sort()).toEqual([HOLDER_EMAIL, EMPLOYEE_EMAIL].sort());
      expect(mails[0].text).toContain(`renewed for the policy year ${list.policyYear.label}`);
      const audit = await db().selectFrom('request_activity').select('activity_text').where('request_id', '=', requestId).where('activity_type', '=', 'Renewal').execute();
      expect(audit.map((r) => r.activity_text)).toContain(`Renewed for ${list.policyYear.label}`);
    }
    // The request's page shows it: the mark and the years it was renewed for, to administrators only.
    const page = await call(h, admin, 'GET', `/api/v1/requests/${renewable[0]}/certificates`);
    expect(page.body.renewal).toEqual({ preference: null, renewedFor: [list.policyYear.label] });
    expect(page.body.items.map((i: { status: string }) => i.status)).toEqual(['Valid', 'Superseded']);
    expect((await call(h, employee, 'GET', `/api/v1/requests/${renewable[0]}/certificates`)).body.renewal).toBeUndefined();
    const [first] = renewable;
    const number = (await db().selectFrom('requests').select('request_number').where('id', '=', first).executeTakeFirstOrThrow()).request_number!;
    const report = await pdfsig(renewedMails(number)[0].attachments[0].content);
    expect(report.valid).toBe(true);

    // Renewed for the year: listed as such, and no run takes them again.
    const after = await candidates();
    for (const requestId of renewable) expect(rowOf(after, requestId)).toMatchObject({ verdict: 'renewed', reason: `Already renewed for ${list.policyYear.label}.` });
    const again = await call(h, admin, 'POST', '/api/v1/renewal-runs', body);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(RENEWAL_MESSAGES.nothingToRenew);

    const book = await h.app.inject({ method: 'GET', url: `/api/v1/renewal-runs/${a.body.id}/result.xlsx`, headers: { authorization: `Bearer ${admin.token}` } });
    expect(book.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(book.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('Request');
    expect(sheet.rowCount - 1).toBe(progressA.total);
  }, 240_000);

  it('pause holds a run between batches and cancel ends it: what was not renewed is listed as cancelled', async () => {
    const made = [];
    for (let i = 0; i < 6; i += 1) made.push(await approved('Fleet', { vehicleIdNumber: `1FTBR1C80MKA1${String(i).padStart(4, '0')}` }));
    const list = await candidates();
    const start = await call(h, admin, 'POST', '/api/v1/renewal-runs', {
      policyYearId: list.policyYear.id, mode: 'renew', from: list.window.from, to: list.window.to, requestIds: made.map((m) => m.id),
    });
    expect(start.status, JSON.stringify(start.body)).toBe(201);
    const paused = await call(h, admin, 'POST', `/api/v1/renewal-runs/${start.body.id}/pause`);
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.state).toBe('paused');
    const cancelled = await call(h, admin, 'POST', `/api/v1/renewal-runs/${start.body.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const progress = await finished(start.body.id);
    const run = await call(h, admin, 'GET', `/api/v1/renewal-runs/${start.body.id}`);
    expect(run.body.state).toBe('cancelled');
    // At most the batches under way when the pause arrived were renewed (two of at most two letters each).
    expect(progress.notRenewed).toBeGreaterThanOrEqual(2);
    expect(progress.done + progress.notRenewed).toBe(6);
    const items = await call(h, admin, 'GET', `/api/v1/renewal-runs/${start.body.id}/items?state=cancelled`);
    expect(items.body.total).toBe(progress.notRenewed);
    expect((await call(h, admin, 'POST', `/api/v1/renewal-runs/${start.body.id}/resume`)).status).toBe(409);
  }, 240_000);

  it('ask first: a yes by the link and a yes by reply are renewed, a no and a silence are not, each listed', async () => {
    const yes = await approved('Fleet', { vehicleIdNumber: '1FTBR1C80MKA19991' });
    const no = await approved('Fleet', { vehicleIdNumber: '1FTBR1C80MKA19992' });
    const silent = await approved('Fleet', { vehicleIdNumber: '1FTBR1C80MKA19993' });
    const byReply = await approved('Fleet', { vehicleIdNumber: '1FTBR1C80MKA19994' });
    const list = await candidates();
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const start = await call(h, admin, 'POST', '/api/v1/renewal-runs', {
      policyYearId: list.policyYear.id, mode: 'ask', answerBy: tomorrow, from: list.window.from, to: list.window.to, requestIds: [yes.id, no.id, silent.id, byReply.id],
    });
    expect(start.status, JSON.stringify(start.body)).toBe(201);
    expect(start.body.state).toBe('asking');
    const questionOf = (number: number) => h.sink.waitFor((m) => m.subject === `Request ${number}: do you still need this certificate?`, 60_000);
    const linkOf = async (number: number) => {
      const mail = await questionOf(number);
      expect(mail.to).toHaveLength(1);
      expect(mail.to).not.toContain(HOLDER_EMAIL);
      return /\/renewal-answer\/([A-Za-z0-9_-]+)\?answer=yes/.exec(mail.text)![1];
    };
    const [yesToken, noToken] = [await linkOf(yes.number), await linkOf(no.number)];
    await linkOf(silent.number);
    const question = await call(h, null, 'GET', `/api/v1/renewal-answers/${yesToken}`);
    expect(question.status).toBe(200);
    expect(question.body).toMatchObject({ requestNumber: yes.number, answer: null, open: true, answerBy: tomorrow });
    expect((await call(h, null, 'POST', `/api/v1/renewal-answers/${yesToken}`, { answer: 'yes' })).body.answer).toBe('yes');
    expect((await call(h, null, 'POST', `/api/v1/renewal-answers/${noToken}`, { answer: 'no' })).body.answer).toBe('no');
    expect((await call(h, null, 'GET', `/api/v1/renewal-answers/${'x'.repeat(32)}`)).status).toBe(404);
    // Answered by replying "Yes" to the question's email: taken as the answer (the approved request takes no message).
    const emailed = await questionOf(byReply.number);
    const listener = await startReplyListener(h);
    const send = replyTransport(listener);
    try {
      const messageId = `<renewal-reply-${Date.now()}@phone.example>`;
      await send.sendMail({ from: EMPLOYEE_EMAIL, to: await replyAddressOf(h, emailed, byReply.number), subject: `Re: ${emailed.subject}`, messageId, text: replyAbove('Yes, we still need it.', emailed) });
      expect(await processed(h, messageId)).toBe('ignored');
    } finally {
      send.close();
      await listener.close();
    }

    const closed = await call(h, admin, 'POST', `/api/v1/renewal-runs/${start.body.id}/close-asking`);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const progress = await finished(start.body.id);
    expect(progress).toMatchObject({ total: 4, done: 2, notRenewed: 2, failed: 0 });
    const items = (await call(h, admin, 'GET', `/api/v1/renewal-runs/${start.body.id}/items`)).body.data as Array<{ requestId: number; state: string }>;
    expect(Object.fromEntries(items.map((i) => [i.requestId, i.state]))).toEqual({ [yes.id]: 'renewed', [no.id]: 'declined', [silent.id]: 'unanswered', [byReply.id]: 'renewed' });
    const answered = await db().selectFrom('request_activity').select('activity_text').where('request_id', '=', byReply.id).where('activity_type', '=', 'Renewal').execute();
    expect(answered.map((r) => r.activity_text)).toContain(`The requester answered yes: still needed for ${list.policyYear.label} (by replying to the email)`);
    expect(renewedMails(yes.number).flatMap((m) => m.envelope.to).sort()).toEqual([HOLDER_EMAIL, EMPLOYEE_EMAIL].sort());
    expect(renewedMails(no.number)).toHaveLength(0);
    // The question is closed now: a late answer is refused.
    const late = await call(h, null, 'POST', `/api/v1/renewal-answers/${noToken}`, { answer: 'yes' });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(RENEWAL_MESSAGES.answerClosed);
  }, 240_000);
});
