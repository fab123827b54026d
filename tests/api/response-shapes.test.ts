/** Responses carry what the route's response schema lists, and nothing internal (storedName, idempotency keys, command ids). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestActivitySchema, RequestSchema } from '../../db/entities';
import { call, credentialingDraft, loginAdmin, loginRequester, SAMPLE_PDF, upload, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let owner: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

describe('documents', () => {
  it('hand out the upload handle only on upload; document records never carry storedName', async () => {
    const id = await credentialingDraft(h, owner);
    const up = await upload(h, owner, id, 'extra.pdf', SAMPLE_PDF);
    expect(up.status).toBe(201);
    expect(up.body).toEqual({ storedName: expect.stringMatching(new RegExp(`^r${id}-`)), filename: 'extra.pdf', size: SAMPLE_PDF.length, mimeType: 'application/pdf' });

    const created = await call(h, owner, 'POST', '/api/v1/documents', { requestId: id, filename: 'Extra.pdf', description: 'Extra', storedName: up.body.storedName });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ requestId: id, name: 'Extra.pdf', mimeType: 'application/pdf', size: SAMPLE_PDF.length });
    expect(created.body).not.toHaveProperty('storedName');
    expect(created.body).not.toHaveProperty('idempotencyKey');

    const list = await call(h, owner, 'GET', `/api/v1/documents?requestId=${id}`);
    expect(list.body).toMatchObject({ total: 2, limit: 50, skip: 0 });
    const detail = await call(h, owner, 'GET', `/api/v1/requests/${id}`);
    for (const document of [...list.body.data, ...detail.body.documents]) {
      expect(document).not.toHaveProperty('storedName');
      expect(document).not.toHaveProperty('idempotencyKey');
    }
    const removed = await call(h, owner, 'DELETE', `/api/v1/documents/${created.body.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('storedName');
  });
});

describe('requests', () => {
  it('carry version (sent back with commands) but not the workflow bookkeeping', async () => {
    const id = await credentialingDraft(h, owner);
    await h.orm.em.fork().nativeUpdate(RequestSchema, { id }, { lastCommandId: 'submit:1:Submitted:v1', internalNotes: 'secret' });
    const detail = await call(h, owner, 'GET', `/api/v1/requests/${id}`);
    expect(detail.body.version).toEqual(expect.any(Number));
    expect(detail.body).not.toHaveProperty('lastCommandId');
    expect(detail.body).not.toHaveProperty('internalNotes');
    const patched = await call(h, owner, 'PATCH', `/api/v1/requests/${id}`, { title: 'Dr', version: detail.body.version });
    expect(patched.status).toBe(200);
    expect(patched.body.version).toBeGreaterThan(detail.body.version);
    expect(patched.body).not.toHaveProperty('lastCommandId');
    const list = await call(h, admin, 'GET', `/api/v1/requests?id=${id}`);
    expect(list.body.data[0]).toMatchObject({ id, version: patched.body.version, internalNotes: 'secret' });
    expect(list.body.data[0]).not.toHaveProperty('lastCommandId');
    const dashboard = await call(h, admin, 'GET', '/api/v1/admin-dashboard');
    expect(dashboard.body.adminRequests.find((r: { id: number }) => r.id === id)).not.toHaveProperty('lastCommandId');
  });

  it('a new draft answers 201 with its version', async () => {
    const created = await call(h, owner, 'POST', '/api/v1/requests', { requestType: 'credentialing', lastName: 'Fresh' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ requestType: 'credentialing', status: 'Draft', lastName: 'Fresh', version: expect.any(Number) });
  });
});

describe('request-activity', () => {
  it('answers effectId (a failed email that can be sent again) but never the idempotency key', async () => {
    const id = await credentialingDraft(h, owner);
    const em = h.orm.em.fork();
    em.create(RequestActivitySchema, {
      requestId: id, date: new Date(), activityType: 'Email', activityText: '"Pending Employment" email failed',
      performedBy: 'COI Automated Email System', idempotencyKey: `test-shape-${id}:1`, effectId: 42, effectOutcome: 'failed',
    });
    await em.flush();
    // (the draft's document has its own audit row)
    const res = await call(h, admin, 'GET', `/api/v1/request-activity?requestId=${id}&activityType=Email`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ requestId: id, activityType: 'Email', effectId: 42 });
    expect(res.body.data[0]).not.toHaveProperty('idempotencyKey');
  });
});
