/**
 * Through the API: documents (filename and description required, the attach flag is the administrators',
 * requesters cannot remove what an administrator added or the portal generated, nothing changes once the request
 * is finished, every change audited) and the administrators' in-place edit (same rules as the form, one audit row
 * naming the changed fields, refused on finished requests; internal notes never reach requesters).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentSchema, RequestActivitySchema, RequestSchema } from '../../db/entities';
import { DocumentFiles } from '../../storage/document-files';
import { DOCUMENT_REMOVE_REFUSED, MESSAGES } from '../../domain';
import { call, credentialingDraft, loginAdmin, loginRequester, SAMPLE_PDF, upload, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let owner: Session;
let admin: Session;

beforeAll(async () => {
  // With a worker: an administrator's Save of internal notes is written by the request's workflow.
  h = await startHarness();
  owner = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

/** The status as the workflow would have written it (quicker than taking each request through its workflow). */
const setStatus = (id: number, status: string) =>
  h.orm.em.fork().nativeUpdate(RequestSchema, { id }, { status, submitDate: new Date(), ...(status === 'Approved' ? { completedDate: new Date() } : {}) });
const auditOf = async (id: number) => (await h.orm.em.fork().find(RequestActivitySchema, { requestId: id }, { orderBy: { id: 'asc' } }));

async function addDocument(session: Session, id: number, filename: string, extra: Record<string, unknown> = {}) {
  const up = await upload(h, session, id, 'file.pdf', SAMPLE_PDF);
  expect(up.status).toBe(201);
  return call(h, session, 'POST', '/api/v1/documents', { requestId: id, filename, description: 'A document', storedName: up.body.storedName, ...extra });
}

describe('documents', () => {
  it('filename and description are required on the server too', async () => {
    const id = await credentialingDraft(h, owner);
    const up = await upload(h, owner, id, 'file.pdf', SAMPLE_PDF);
    const noDescription = await call(h, owner, 'POST', '/api/v1/documents', { requestId: id, filename: 'A.pdf', storedName: up.body.storedName });
    expect(noDescription.status).toBe(400);
    expect(noDescription.body).toMatchObject({ name: 'BadRequest', errors: { description: MESSAGES.required } });
    const blank = await call(h, owner, 'POST', '/api/v1/documents', { requestId: id, filename: 'A.pdf', description: '   ', storedName: up.body.storedName });
    expect(blank.body.errors).toEqual({ description: MESSAGES.required });
    const blankName = await call(h, owner, 'POST', '/api/v1/documents', { requestId: id, filename: ' ', description: 'x', storedName: up.body.storedName });
    expect(blankName.body.errors).toEqual({ filename: MESSAGES.required });
    const [doc] = await h.orm.em.fork().find(DocumentSchema, { requestId: id });
    expect((await call(h, admin, 'PATCH', `/api/v1/documents/${doc.id}`, { description: '' })).body.errors).toEqual({ description: MESSAGES.required });
  });

  it('the attach-to-approval-email flag is the administrators\': a requester can neither set it on a new document nor change it', async () => {
    const id = await credentialingDraft(h, owner);
    const flagged = await addDocument(owner, id, 'Mine.pdf', { isAttachment: true });
    expect(flagged.status).toBe(403);
    expect(flagged.body).toMatchObject({ name: 'Forbidden', code: 403 });
    const mine = await addDocument(owner, id, 'Mine.pdf');
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ isAttachment: false, origin: 'requester' });
    expect((await call(h, owner, 'PATCH', `/api/v1/documents/${mine.body.id}`, { isAttachment: true })).status).toBe(403);
    expect((await h.orm.em.fork().findOneOrFail(DocumentSchema, mine.body.id)).isAttachment).toBe(false);
  });

  it('a requester cannot remove a document an administrator added or the portal generated; their own, yes', async () => {
    const id = await credentialingDraft(h, owner);
    await setStatus(id, 'Pending Additional Information'); // the requester may change the request again
    const byAdmin = await addDocument(admin, id, 'Policy summary.pdf', { isAttachment: true });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body).toMatchObject({ origin: 'administrator', isAttachment: true });
    const em = h.orm.em.fork();
    const letter = em.create(DocumentSchema, {
      requestId: id, name: 'Letter.pdf', description: 'Generated', storedName: DocumentFiles.newStoredName('Letter.pdf'), mimeType: 'application/pdf',
      size: 10, isAttachment: true, uploadedBy: 'COI Automated Document System', idempotencyKey: `test-letter-${id}`,
    });
    await em.flush();
    const mine = await addDocument(owner, id, 'Mine.pdf');

    for (const documentId of [byAdmin.body.id, letter.id]) {
      const refused = await call(h, owner, 'DELETE', `/api/v1/documents/${documentId}`);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ name: 'Forbidden', message: DOCUMENT_REMOVE_REFUSED });
    }
    const detail = await call(h, owner, 'GET', `/api/v1/requests/${id}`);
    expect(detail.body.documents.map((d: { name: string; origin: string }) => [d.name, d.origin])).toEqual([
      ['Signed release.pdf', 'requester'], ['Policy summary.pdf', 'administrator'], ['Letter.pdf', 'system'], ['Mine.pdf', 'requester'],
    ]);
    expect((await call(h, owner, 'DELETE', `/api/v1/documents/${mine.body.id}`)).status).toBe(200);
    expect((await call(h, admin, 'DELETE', `/api/v1/documents/${byAdmin.body.id}`)).status).toBe(200);
  });

  it('every document change is audited; nothing changes once the request is approved', async () => {
    const id = await credentialingDraft(h, owner);
    await setStatus(id, 'Submitted');
    const added = await addDocument(admin, id, 'Notes.pdf');
    expect((await call(h, admin, 'PATCH', `/api/v1/documents/${added.body.id}`, { filename: 'Board notes.pdf', description: 'Board notes', isAttachment: true })).status).toBe(200);
    expect((await call(h, admin, 'PATCH', `/api/v1/documents/${added.body.id}`, { isAttachment: false })).status).toBe(200);
    expect((await call(h, admin, 'DELETE', `/api/v1/documents/${added.body.id}`)).status).toBe(200);
    const rows = (await auditOf(id)).filter((a) => a.activityType === 'Document');
    expect(rows.map((a) => a.activityText)).toEqual([
      'Added "Signed release.pdf"',
      'Added "Notes.pdf"',
      'Renamed "Notes.pdf" to "Board notes.pdf"',
      'Changed the description of "Board notes.pdf"',
      '"Board notes.pdf" will be attached to the approval email',
      '"Board notes.pdf" will no longer be attached to the approval email',
      'Deleted "Board notes.pdf"',
    ]);
    expect(rows.at(-1)!.performedBy).toBe(`${admin.user.firstName} ${admin.user.lastName}`);
    expect(rows.at(-1)!.performedByUserId, 'the account beside the name').toBe(admin.user.id);

    const kept = await addDocument(admin, id, 'Kept.pdf');
    await setStatus(id, 'Approved');
    for (const res of [
      await call(h, admin, 'PATCH', `/api/v1/documents/${kept.body.id}`, { filename: 'Other.pdf' }),
      await call(h, admin, 'DELETE', `/api/v1/documents/${kept.body.id}`),
      await addDocument(admin, id, 'Late.pdf').catch(() => ({ status: 403 })),
    ]) expect(res.status).toBe(403);
  });
});

describe('admin in-place edit', () => {
  it('saves with the form rules and writes one audit row naming the changed fields', async () => {
    const id = await credentialingDraft(h, owner);
    await setStatus(id, 'Submitted');
    const before = (await auditOf(id)).length;
    const ok = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { lastName: 'Nguyen-Tran', facilityName: 'Mercy Hospital', firstName: 'Avery' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ lastName: 'Nguyen-Tran', facilityName: 'Mercy Hospital', status: 'Submitted' });
    const rows = (await auditOf(id)).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      activityType: 'Field Edit', activityText: 'Edited "Last Name", "Requesting Facility"',
      performedBy: `${admin.user.firstName} ${admin.user.lastName}`, performedByUserId: admin.user.id,
    });

    // the requester's form rules: a required field emptied, an end before the start
    const bad = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { lastName: '', dateTo: '2019-01-01T11:00:00.000Z' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ name: 'BadRequest', errors: { lastName: MESSAGES.required } });
    expect(bad.body.errors.dateTo).toBeTruthy();
    expect((await h.orm.em.fork().findOneOrFail(RequestSchema, id)).lastName).toBe('Nguyen-Tran');
    expect((await auditOf(id)).slice(before)).toHaveLength(1);
  });

  it('is refused on completed and closed requests (403 in the spec error shape)', async () => {
    for (const status of ['Approved', 'Closed']) {
      const id = await credentialingDraft(h, owner);
      await setStatus(id, status);
      const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { lastName: 'Changed' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ name: 'Forbidden', message: expect.stringContaining('can no longer be edited'), code: 403, className: 'forbidden', data: {}, errors: {} });
      expect((await h.orm.em.fork().findOneOrFail(RequestSchema, id)).lastName).toBe('Nguyen');
    }
  });

  it('internal notes are the administrators\': audited, never returned to the requester, not writable by them', async () => {
    const id = await credentialingDraft(h, owner);
    await setStatus(id, 'Submitted');
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { internalNotes: 'Called the clinic; waiting.' })).status).toBe(200);
    expect((await auditOf(id)).at(-1)).toMatchObject({ activityType: 'Field Edit', activityText: 'Edited "Internal Notes"' });
    expect((await call(h, admin, 'GET', `/api/v1/requests/${id}`)).body.internalNotes).toBe('Called the clinic; waiting.');
    const mine = await call(h, owner, 'GET', `/api/v1/requests/${id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).not.toHaveProperty('internalNotes');
    const list = await call(h, owner, 'GET', `/api/v1/requests?id=${id}&$select[0]=id&$select[1]=internalNotes`);
    // a requester may not even select it
    expect(list.status).toBe(400);
    expect(JSON.stringify(list.body)).not.toContain('Called the clinic');
    expect(JSON.stringify((await call(h, owner, 'GET', '/api/v1/requests')).body)).not.toContain('Called the clinic');
    expect((await call(h, owner, 'PATCH', `/api/v1/requests/${id}`, { internalNotes: 'mine' })).status).toBe(403);
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { internalNotes: 'x'.repeat(2501) })).status).toBe(400);
  });
});
