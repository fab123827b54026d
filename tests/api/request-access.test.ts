/** Access is enforced on the server: ownership, admin-only actions, validation with the spec's messages. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestSchema } from '../../db/entities';
import { call, createExternalUser, credentialingDraft, login, loginAdmin, loginRequester, upload, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let owner: Session;
let stranger: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await loginRequester(h);
  await createExternalUser(h, 'other@clinic.example', 'Other-Pass1');
  stranger = await login(h, 'other@clinic.example', 'Other-Pass1');
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

describe('ownership', () => {
  it("refuses another requester's request, its documents and its files", async () => {
    const id = await credentialingDraft(h, owner);
    const get = await call(h, stranger, 'GET', `/api/v1/requests/${id}`);
    expect(get.status).toBe(403);
    expect(get.body).toMatchObject({ name: 'Forbidden', code: 403, className: 'forbidden' });
    expect((await call(h, stranger, 'PATCH', `/api/v1/requests/${id}`, { lastName: 'Hacked' })).status).toBe(403);
    expect((await call(h, stranger, 'DELETE', `/api/v1/requests/${id}`)).status).toBe(403);
    expect((await call(h, stranger, 'GET', `/api/v1/documents?requestId=${id}`)).status).toBe(403);
    expect((await call(h, stranger, 'GET', `/api/v1/documents/${id}/${encodeURIComponent('Signed release.pdf')}`)).status).toBe(403);
    expect((await upload(h, stranger, id, 'x.pdf', Buffer.from('%PDF-1.4\n%%EOF'))).status).toBe(403);
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(row.lastName).toBe('Nguyen');
  });

  it('lists only the caller\'s own requests, whatever the query asks for', async () => {
    const mine = await credentialingDraft(h, owner);
    const theirs = await credentialingDraft(h, stranger);
    const list = await call(h, stranger, 'GET', `/api/v1/requests?$sort[updatedAt]=-1&$or[0][id]=${mine}&$or[1][id]=${theirs}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: any) => r.id)).toEqual([theirs]);
    expect(list.body).toMatchObject({ total: 1, skip: 0, limit: 1000 });
  });

  it('lets a requester see a request that names their email as the clinician email', async () => {
    const id = await credentialingDraft(h, owner, { email: 'Other@Clinic.example' });
    expect((await call(h, stranger, 'GET', `/api/v1/requests/${id}`)).status).toBe(200);
  });

  it('admins see every request', async () => {
    const id = await credentialingDraft(h, stranger);
    expect((await call(h, admin, 'GET', `/api/v1/requests/${id}`)).status).toBe(200);
  });
});

describe('admin-only actions', () => {
  it('refuses a status change by a requester, and changes nothing', async () => {
    const id = await credentialingDraft(h, owner);
    for (const payload of [{ status: 'Approved' }, { status: 'Denied' }, { verified: true }, { internalNotes: 'x' }]) {
      const res = await call(h, owner, 'PATCH', `/api/v1/requests/${id}`, payload);
      expect(res.status, JSON.stringify(payload)).toBe(403);
      expect(res.body.name).toBe('Forbidden');
    }
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(row).toMatchObject({ status: 'Draft', verified: false, internalNotes: null });
  });

  it('refuses the admin dashboard and the audit trail to requesters', async () => {
    expect((await call(h, owner, 'GET', '/api/v1/admin-dashboard')).status).toBe(403);
    expect((await call(h, owner, 'GET', '/api/v1/request-activity?requestId=1')).status).toBe(403);
    const dash = await call(h, admin, 'GET', '/api/v1/admin-dashboard');
    expect(dash.status).toBe(200);
    expect(dash.body.requestCounts).toEqual({ today: expect.any(Number), monthToDate: expect.any(Number), yearToDate: expect.any(Number) });
  });

  it('hides internal notes from requesters', async () => {
    const id = await credentialingDraft(h, owner);
    await h.orm.em.fork().nativeUpdate(RequestSchema, { id }, { internalNotes: 'secret' });
    expect((await call(h, owner, 'GET', `/api/v1/requests/${id}`)).body).not.toHaveProperty('internalNotes');
    expect((await call(h, admin, 'GET', `/api/v1/requests/${id}`)).body.internalNotes).toBe('secret');
    expect((await call(h, owner, 'GET', `/api/v1/requests?internalNotes=secret`)).status).toBe(400);
  });
});

describe('submit validation', () => {
  it('names every missing field with the spec messages and saves nothing', async () => {
    const created = await call(h, owner, 'POST', '/api/v1/requests', { requestType: 'credentialing', lastName: 'Solo' });
    const res = await call(h, owner, 'PATCH', `/api/v1/requests/${created.body.id}`, { status: 'Submitted' });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('BadRequest');
    expect(res.body.errors).toMatchObject({
      firstName: 'The field above is required',
      birthDate: 'The field above is required', // external requester
      dateFrom: 'The field above is required',
      providerType: 'The field above is required',
      documents: 'Please add required document(s) as described above',
    });
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, created.body.id);
    expect(row).toMatchObject({ status: 'Draft', requestNumber: expect.any(Number), lastName: 'Solo' });
  });

  it('refuses request dates before 7/1/2002 or after today', async () => {
    const tomorrow = new Date(Date.now() + 2 * 86400_000).toISOString().slice(0, 10) + 'T11:00:00.000Z';
    const id = await credentialingDraft(h, owner, { dateFrom: '2002-06-30T11:00:00.000Z', dateTo: tomorrow });
    const res = await call(h, owner, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(res.status).toBe(400);
    expect(res.body.errors.dateFrom).toBe('Date cannot be before 07/01/2002');
    expect(res.body.errors.dateTo).toBe('Date cannot be after today');
  });

  it('refuses malformed payloads with the error shape', async () => {
    const res = await call(h, owner, 'POST', '/api/v1/requests', { requestType: 'credentialing', birthDate: 'yesterday' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'BadRequest', className: 'bad-request' });
    expect(res.body.errors.birthDate).toBeTruthy();
  });
});

describe('uploads are bounded and sniffed', () => {
  it('refuses a file that is not what the portal accepts, whatever its name says', async () => {
    const id = await credentialingDraft(h, owner);
    const res = await upload(h, owner, id, 'release.pdf', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('Unprocessable');
  });

  it('refuses a file over the size limit with 413 and keeps nothing', async () => {
    const id = await credentialingDraft(h, owner);
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(h.config.uploadMaxBytes + 10, 0x20)]);
    const res = await upload(h, owner, id, 'big.pdf', big);
    expect(res.status).toBe(413);
    expect(res.body.name).toBe('PayloadTooLarge');
  });

  it('refuses a duplicate document name within a request', async () => {
    const id = await credentialingDraft(h, owner);
    const up = await upload(h, owner, id, 'again.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'));
    const dup = await call(h, owner, 'POST', '/api/v1/documents', { requestId: id, filename: 'Signed release.pdf', description: 'Again', storedName: up.body.storedName });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('This document already exists');
  });
});
