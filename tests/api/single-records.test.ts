/**
 * `GET collection/{id}` on every resource that lists, and `GET users` (spec 2 §7.1 "single record",
 * §7.11 "find and get via users"): the record the list shows, under the list's access rule, 404 in the spec's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminSchema, ClaimDataSchema, DiscussionSchema, EmailTemplateSchema, FaqSchema, PersonSchema, PolicyYearSchema, RequestActivitySchema, RequestExportSchema } from '../../db/entities';
import { attachDocument, call, createExternalUser, credentialingDraft, login, loginAdmin, loginEmployee, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let requester: Session;
let employee: Session;
let stranger: Session;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  [admin, requester, employee] = await Promise.all([loginAdmin(h), loginRequester(h), loginEmployee(h)]);
  const email = `single-${Date.now()}@clinic.example`;
  await createExternalUser(h, email, 'Single-Pass1');
  stranger = await login(h, email, 'Single-Pass1');
});
afterAll(async () => { await h?.stop(); });

const get = (session: Session | null, url: string) => call(h, session, 'GET', `/api/v1/${url}`);
async function firstId(entity: unknown, where: object = {}): Promise<number | undefined> {
  const [row] = await h.orm.em.fork().find(entity as never, where as never, { orderBy: { id: 'asc' } as never, limit: 1 });
  return (row as { id: number } | undefined)?.id;
}

describe('administrators\' resources', () => {
  it.each([
    ['admins', AdminSchema], ['policies', PolicyYearSchema], ['email-templates', EmailTemplateSchema],
  ] as const)('%s/:id answers the record the list shows, administrators only, 404 when missing', async (resource, entity) => {
    const id = (await firstId(entity))!;
    expect(id).toBeDefined();
    const one = await get(admin, `${resource}/${id}`);
    expect(one.status).toBe(200);
    const list = await get(admin, resource);
    const listed = (Array.isArray(list.body) ? list.body : list.body.data).find((r: { id: number }) => r.id === id);
    expect(one.body).toEqual(JSON.parse(JSON.stringify(listed)));
    expect((await get(requester, `${resource}/${id}`)).status).toBe(403);
    expect((await get(null, `${resource}/${id}`)).status).toBe(401);
    const missing = await get(admin, `${resource}/2147483000`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ name: 'NotFound', code: 404, className: 'not-found', message: "No record found for id '2147483000'" });
  });

  it('cs-stars/:id, request-activity/:id, export-requests/:id and claim-history/:id answer one record each', async () => {
    const id = await credentialingDraft(h, requester);
    await attachDocument(h, requester, id); // writes an audit row
    const activityId = (await firstId(RequestActivitySchema, { requestId: id }))!;
    expect((await get(admin, `request-activity/${activityId}`)).body).toMatchObject({ id: activityId, requestId: id, activityType: 'Document' });
    expect((await get(requester, `request-activity/${activityId}`)).status).toBe(403);

    const linked = await call(h, admin, 'POST', '/api/v1/claim-history', { requestId: id, claimIds: [] });
    expect(linked.status).toBe(201);
    const entry = await get(admin, `claim-history/${linked.body[0].id}`);
    expect(entry.body).toMatchObject({ id: linked.body[0].id, requestId: id });
    expect((await get(requester, `claim-history/${linked.body[0].id}`)).status).toBe(403);

    const started = await call(h, admin, 'POST', '/api/v1/export-requests', { filename: 'coi_export_single' });
    expect((await get(admin, `export-requests/${started.body.id}`)).body).toMatchObject({ id: started.body.id, filename: 'coi_export_single.xlsx' });
    expect(await firstId(RequestExportSchema)).toBeDefined();

    const claimId = await firstId(ClaimDataSchema);
    if (claimId !== undefined) expect((await get(admin, `cs-stars/${claimId}`)).body).toMatchObject({ id: claimId });
    expect((await get(admin, 'cs-stars/2147483000')).status).toBe(404);
    expect((await get(requester, 'cs-stars/1')).status).toBe(403);
  });
});

describe('records of a request', () => {
  it('documents/:id and discussions/:id answer whoever may see the request, 403 to others, like requests/:id', async () => {
    const id = await credentialingDraft(h, requester);
    await attachDocument(h, requester, id);
    const documentId = (await get(requester, `documents?requestId=${id}`)).body.data[0].id as number;
    expect((await get(requester, `documents/${documentId}`)).body).toMatchObject({ id: documentId, requestId: id, name: 'Signed release.pdf' }); // credentialingDraft's signed release
    expect((await get(admin, `documents/${documentId}`)).status).toBe(200);
    expect((await get(stranger, `documents/${documentId}`)).status).toBe((await get(stranger, `requests/${id}`)).status);
    expect((await get(stranger, `documents/${documentId}`)).status).toBe(403);
    expect((await get(requester, 'documents/2147483000')).status).toBe(404);

    // Messages written as the workflow-less harness cannot post them (a message posts through the workflow).
    const em = h.orm.em.fork();
    const shown = em.create(DiscussionSchema, { requestId: id, discussionId: 'ABCDEFGHIJKL', topic: 'Dates', message: 'Which?', sender: 'Casey', senderEmail: requester.user.email, fromAdmin: false, deletedAt: null });
    const gone = em.create(DiscussionSchema, { requestId: id, discussionId: 'ABCDEFGHIJKL', topic: 'Dates', message: 'Oops', sender: 'Casey', senderEmail: requester.user.email, fromAdmin: false, deletedAt: new Date() });
    await em.flush();
    expect((await get(requester, `discussions/${shown.id}`)).body).toMatchObject({ id: shown.id, topic: 'Dates', message: 'Which?' });
    expect((await get(admin, `discussions/${shown.id}`)).status).toBe(200);
    expect((await get(stranger, `discussions/${shown.id}`)).status).toBe(403);
    expect((await get(requester, `discussions/${gone.id}`)).status).toBe(404);
  });
});

describe('faqs, people and users', () => {
  it('faqs/:id: requesters read the Requester set only', async () => {
    const requesterFaq = (await firstId(FaqSchema, { type: 'Requester' }))!;
    const adminFaq = (await firstId(FaqSchema, { type: 'Admin' }))!;
    expect((await get(requester, `faqs/${requesterFaq}`)).body).toMatchObject({ id: requesterFaq, type: 'Requester' });
    expect((await get(requester, `faqs/${adminFaq}`)).status).toBe(404);
    expect((await get(admin, `faqs/${adminFaq}`)).body).toMatchObject({ id: adminFaq, type: 'Admin' });
  });

  it('people/:id: internal users, dates for administrators only; external requesters 403', async () => {
    const personId = (await firstId(PersonSchema))!;
    const forAdmin = await get(admin, `people/${personId}`);
    expect(forAdmin.status).toBe(200);
    expect(Object.keys(forAdmin.body)).toContain('birthDate');
    const forEmployee = await get(employee, `people/${personId}`);
    expect(forEmployee.body).toMatchObject({ id: personId, email: forAdmin.body.email });
    expect(Object.keys(forEmployee.body)).not.toContain('birthDate');
    expect((await get(requester, `people/${personId}`)).status).toBe(403);
  });

  it('GET users: administrators page through external users, filters optional, the total counted, no password', async () => {
    const all = await get(admin, 'users?$limit=1');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ limit: 1, skip: 0 });
    expect(all.body.total).toBeGreaterThanOrEqual(2); // the development requester and the stranger
    expect(all.body.data).toHaveLength(1);
    const next = await get(admin, 'users?$limit=1&$skip=1');
    expect(next.body.data[0].id).not.toBe(all.body.data[0].id);
    const one = await get(admin, `users?email=${encodeURIComponent(stranger.user.email)}`);
    expect(one.body.data.map((u: { email: string }) => u.email)).toEqual([stranger.user.email]);
    expect(JSON.stringify(all.body)).not.toMatch(/password/i);
    expect((await get(requester, 'users')).status).toBe(403);
    expect((await get(admin, 'users?$limit=5000')).status).toBe(400);
  });
});
