/**
 * generate-pdfs (spec 2 §7.7) on real parts: it goes through the request's workflow (re-created from
 * PostgreSQL once an approved request's run has ended), the letter activity stores the new PDF with its audit row,
 * `sendWithEmail` emails it with the approval template, only approved requests have one, a repeat of the same command makes one letter, and an
 * approval email never carries older generated letters. Prints the answer time p50/p95 over 20 calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentSchema, RequestActivitySchema, RequestEffectSchema } from '../../db/entities';
import { LETTER_NOT_APPROVED } from '../../domain';
import { requestWorkflowId } from '../../workflows/request.messages';
import { call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let requester: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness();
  requester = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

async function approved() {
  const { id, number } = await submitted();
  expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Approved', verified: true })).status).toBe(200);
  await eventually(async () => (await letters(id)).length === 1, 30_000);
  return { id, number };
}

async function submitted() {
  const id = await credentialingDraft(h, requester);
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status).toBe(200);
  return { id, number: res.body.requestNumber as number };
}
const letters = async (id: number) => (await h.orm.em.fork().find(DocumentSchema, { requestId: id, idempotencyKey: { $ne: null } }, { orderBy: { id: 'asc' } }));
const generate = (id: number, body: Record<string, unknown> = {}, session = admin) =>
  call(h, session, 'POST', '/api/v1/generate-pdfs', { requestId: id, ...body });

describe('POST /api/v1/generate-pdfs', () => {
  it('regenerates the letter of an approved request whose workflow has ended, emails it on request, and answers the document list', async () => {
    const { id, number } = await submitted();
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Approved', verified: true })).status).toBe(200);
    await h.sink.waitFor((m) => m.subject.includes(`${number} approved`), 60_000);
    const handle = h.temporal.workflow.getHandle(requestWorkflowId(number));
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED', 60_000);
    expect(await letters(id)).toHaveLength(1);

    const res = await generate(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = await letters(id);
    expect(made).toHaveLength(2);
    expect(res.body.map((d: { name: string }) => d.name)).toEqual(['Signed release.pdf', ...made.map((d) => d.name)]);
    expect(res.body.at(-1)).toMatchObject({ origin: 'system', mimeType: 'application/pdf' });
    expect(res.body.at(-1)).not.toHaveProperty('storedName');
    // a letter without an email owes nothing once it is stored, and no email went out
    const effect = await h.orm.em.fork().findOneOrFail(RequestEffectSchema, { requestId: id, kind: 'letter' });
    await eventually(async () => (await h.orm.em.fork().findOneOrFail(RequestEffectSchema, effect.id)).state === 'sent');
    expect(h.sink.messages().filter((m) => m.subject.includes(`${number} approved`))).toHaveLength(1);

    const emailed = await generate(id, { sendWithEmail: true });
    expect(emailed.status).toBe(200);
    expect(await letters(id)).toHaveLength(3);
    await eventually(async () => h.sink.messages().filter((m) => m.subject.includes(`${number} approved`)).length === 2 || null, 30_000);
    const second = h.sink.messages().filter((m) => m.subject.includes(`${number} approved`))[1];
    // the new letter only: earlier generated letters are not "flagged" documents
    expect(second.attachments.map((a) => a.filename)).toEqual([(await letters(id))[2].name]);

    const audit = (await h.orm.em.fork().find(RequestActivitySchema, { requestId: id }, { orderBy: { id: 'asc' } }))
      .map((a) => [a.activityType, a.activityText, a.performedBy, a.performedByUserId]);
    expect(audit).toContainEqual(['Document', 'Regenerated the letter', `${admin.user.firstName} ${admin.user.lastName}`, admin.user.id]);
    expect(audit).toContainEqual(['Document', 'Regenerated the letter and emailed it', `${admin.user.firstName} ${admin.user.lastName}`, admin.user.id]);
    expect(audit.filter(([type, text]) => type === 'Document' && String(text).startsWith('Generated "'))).toHaveLength(3);
  });

  it('the same command twice makes one letter; administrators only; approved requests only', async () => {
    const { id } = await approved();
    const [a, b] = await Promise.all([generate(id), generate(id)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await letters(id)).toHaveLength(2);
    expect((await generate(id, {}, requester)).status).toBe(403);
    const pending = await submitted();
    const refused = await generate(pending.id, { sendWithEmail: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ name: 'BadRequest', message: LETTER_NOT_APPROVED });
    expect(await letters(pending.id)).toHaveLength(0);
    const draft = await credentialingDraft(h, requester);
    expect((await generate(draft)).status).toBe(400);
  });

  it('answer time over 20 calls (p50/p95, printed for the issue note)', async () => {
    const { id } = await approved();
    const times: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const started = performance.now();
      const res = await generate(id);
      times.push(performance.now() - started);
      expect(res.status).toBe(200);
    }
    expect(await letters(id)).toHaveLength(21);
    const sorted = [...times].sort((x, y) => x - y);
    const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    console.log(`[generate-pdfs] 20 calls: p50 ${pick(0.5).toFixed(0)} ms, p95 ${pick(0.95).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`);
  });
});
