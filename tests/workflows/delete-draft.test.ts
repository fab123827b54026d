/**
 * Deleting a draft (issue #22 items 11 and 15; spec 2 §7.3 "It also removes the associated claim history,
 * discussions and documents"; spec 1 §6: one's own drafts): everything attached goes with it, including the workflow
 * a discussion started, and nobody deletes another person's draft, administrators included.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimHistorySchema, DiscussionSchema, DocumentSchema, RequestActivitySchema, RequestSchema } from '../../db/entities';
import { requestWorkflowId } from '../../workflows/request.messages';
import { attachDocument, call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let requester: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness();
  [requester, admin] = await Promise.all([loginRequester(h), loginAdmin(h)]);
});
afterAll(async () => { await h?.stop(); });

const countOf = async (schema: typeof DocumentSchema, requestId: number) => h.orm.em.fork().count(schema, { requestId });

describe('deleting a draft', () => {
  it('is refused for anyone but its requester, administrators included', async () => {
    const id = await credentialingDraft(h, requester);
    const refused = await call(h, admin, 'DELETE', `/api/v1/requests/${id}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ name: 'Forbidden', message: 'Only the requester can delete this draft' });
    expect(await h.orm.em.fork().count(RequestSchema, { id })).toBe(1);
    const own = await credentialingDraft(h, admin);
    expect((await call(h, admin, 'DELETE', `/api/v1/requests/${own}`)).status).toBe(200);
  });

  it('removes its documents and their files, discussions, audit rows, claim links and the workflow a discussion started', async () => {
    const id = await credentialingDraft(h, requester);
    await attachDocument(h, requester, id);
    const posted = await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Before I submit', message: 'Which dates?' });
    expect(posted.status).toBe(201);
    const em = h.orm.em.fork();
    const row = await em.findOneOrFail(RequestSchema, id);
    em.create(ClaimHistorySchema, { requestId: id, physician: 'No claims found' }); // the "none found" entry an administrator links
    await em.flush();
    const handle = h.temporal.workflow.getHandle(requestWorkflowId(row.requestNumber!));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await eventually(async () => ((await countOf(RequestActivitySchema as never, id)) >= 2 ? true : undefined));
    const files = (await em.find(DocumentSchema, { requestId: id })).map((d) => h.files.pathOf(d.storedName));
    expect(files.every((file) => existsSync(file))).toBe(true);

    const deleted = await call(h, requester, 'DELETE', `/api/v1/requests/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id, status: 'Draft' });
    for (const schema of [DocumentSchema, DiscussionSchema, RequestActivitySchema, ClaimHistorySchema]) {
      expect(await countOf(schema as typeof DocumentSchema, id), schema.meta.className).toBe(0);
    }
    expect(await h.orm.em.fork().count(RequestSchema, { id })).toBe(0);
    expect(files.some((file) => existsSync(file))).toBe(false);
    expect((await handle.describe()).status.name).toBe('TERMINATED');
    expect((await call(h, requester, 'GET', `/api/v1/requests/${id}`)).status).toBe(404);
  });
});
