/** POST /api/v1/send-email (spec 2 §7.9): access and validation. Sending itself is the request workflow's. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestActivitySchema, RequestSchema } from '../../db/entities';
import { EMAIL_TEMPLATE_TITLES } from '../../domain';
import { call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let owner: Session;
let admin: Session;
let draftId: number;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await loginRequester(h);
  admin = await loginAdmin(h);
  draftId = await credentialingDraft(h, owner);
});
afterAll(async () => { await h?.stop(); });

const send = (session: Session | null, body: unknown) => call(h, session, 'POST', '/api/v1/send-email', body);
const valid = () => ({ requestId: draftId, templateTitle: EMAIL_TEMPLATE_TITLES.pendingEmployment });

describe('POST /api/v1/send-email', () => {
  it('requires a session (401) and an administrator (403)', async () => {
    expect((await send(null, valid())).body).toMatchObject({ name: 'NotAuthenticated', code: 401 });
    expect((await send(owner, valid())).body).toMatchObject({ name: 'Forbidden', code: 403 });
  });

  it('refuses a template title that is not one of the spec titles', async () => {
    const res = await send(admin, { ...valid(), templateTitle: 'Happy Birthday' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'BadRequest', className: 'bad-request' });
    expect(res.body.errors.templateTitle).toBeTruthy();
  });

  it('refuses malformed ids', async () => {
    for (const body of [{ ...valid(), requestId: 'x' }, { ...valid(), retryOf: 0 }, { templateTitle: valid().templateTitle }]) {
      const res = await send(admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers 404 for an unknown request', async () => {
    const res = await send(admin, { ...valid(), requestId: 999_999_999 });
    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFound');
  });

  it('answers 400 for a draft that was never submitted', async () => {
    const res = await send(admin, valid());
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('BadRequest');
  });

  it('sends again only a failed email of the same request', async () => {
    const id = await credentialingDraft(h, owner);
    const em = h.orm.em.fork();
    await em.nativeUpdate(RequestSchema, { id }, { requestNumber: 880_000 + id, status: 'Submitted' });
    const entry = em.create(RequestActivitySchema, {
      requestId: draftId, date: new Date(), activityType: 'Email', activityText: 'x', performedBy: 'x', effectId: 7, effectOutcome: 'failed',
    });
    await em.flush();
    const res = await send(admin, { requestId: id, templateTitle: valid().templateTitle, retryOf: (entry as { id: number }).id });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('retryOf');
  });

  it('names bad addresses among the additional recipients (400, nothing queued)', async () => {
    const id = await credentialingDraft(h, owner);
    await h.orm.em.fork().nativeUpdate(RequestSchema, { id }, { requestNumber: 890_000 + id, status: 'Submitted', submitDate: new Date() });
    const res = await send(admin, { requestId: id, templateTitle: valid().templateTitle, recipients: 'ok@example.org; not-an-address, also@bad' });
    expect(res.status).toBe(400);
    expect(res.body.errors.recipients).toBe('"not-an-address", "also@bad" are not valid email addresses');
  });
});
