/**
 * Deleting a draft (spec 2 §7.3 "It also removes the associated claim history,
 * discussions and documents"; spec 1 §6: one's own drafts): everything attached goes with it, including the workflow
 * a discussion started, and nobody deletes another person's draft, administrators included.
 */
import { existsSync } from 'node:fs';
import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClaimHistorySchema, DiscussionSchema, DocumentSchema, RequestActivitySchema, RequestEffectSchema, RequestSchema,
} from '../../db/entities';
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

type RequestChild = typeof DocumentSchema | typeof DiscussionSchema | typeof RequestActivitySchema | typeof RequestEffectSchema | typeof ClaimHistorySchema;
/** One count per kind of row a request owns; the union's members share `requestId`, which is all the filter names. */
const countOf = async (schema: RequestChild, requestId: number) => h.orm.em.fork().count(schema as typeof DocumentSchema, { requestId });
const sql = <T>(text: string, params: unknown[] = []) => h.orm.em.fork().getConnection().execute(text, params, 'all') as Promise<T[]>;

/** Every column that names a request, found in the schema (so a child table added later is checked too). */
const requestColumns = () => sql<{ table: string; column: string }>(
  `select c.relname as "table", a.attname as "column" from pg_constraint k
   join pg_class c on c.oid = k.conrelid join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any (k.conkey)
   where k.contype = 'f' and k.confrelid = '"requests"'::regclass order by 1, 2`,
);
const rowsNaming = async (requestId: number) => Object.fromEntries(await Promise.all((await requestColumns()).map(async ({ table, column }) =>
  [`${table}.${column}`, Number((await sql<{ n: string }>(`select count(*) as n from "${table}" where "${column}" = ?`, [requestId]))[0].n)] as const)));

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
    await eventually(async () => ((await countOf(RequestActivitySchema, id)) >= 2 ? true : undefined));
    const files = (await em.find(DocumentSchema, { requestId: id })).map((d) => h.files.pathOf(d.storedName));
    expect(files.every((file) => existsSync(file))).toBe(true);

    const deleted = await call(h, requester, 'DELETE', `/api/v1/requests/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id, status: 'Draft' });
    for (const schema of [DocumentSchema, DiscussionSchema, RequestActivitySchema, ClaimHistorySchema]) {
      expect(await countOf(schema, id), schema.meta.className).toBe(0);
    }
    expect(await h.orm.em.fork().count(RequestSchema, { id })).toBe(0);
    expect(files.some((file) => existsSync(file))).toBe(false);
    expect((await handle.describe()).status.name).toBe('TERMINATED');
    expect((await call(h, requester, 'GET', `/api/v1/requests/${id}`)).status).toBe(404);
  });

  it('leaves no row naming it in any child table, and the database refuses a child of a request that does not exist', async () => {
    const id = await credentialingDraft(h, requester); // with a document and its upload
    await attachDocument(h, requester, id, 'Second.pdf');
    expect((await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Dates', message: 'Which?' })).status).toBe(201);
    const em = h.orm.em.fork();
    em.create(ClaimHistorySchema, { requestId: id, physician: 'No claims found' });
    await em.flush();
    await eventually(async () => ((await countOf(RequestEffectSchema, id)) >= 1 ? true : undefined)); // the message's email
    const before = await rowsNaming(id);
    for (const child of ['documents', 'discussions', 'request_activity', 'request_effects', 'claim_history', 'uploads']) {
      expect(before[`${child}.request_id`], child).toBeGreaterThan(0);
    }

    expect((await call(h, requester, 'DELETE', `/api/v1/requests/${id}`)).status).toBe(200);
    const after = await rowsNaming(id);
    expect(after).toEqual(Object.fromEntries(Object.keys(before).map((column) => [column, 0])));
    // The upload register outlives the draft (quota and housekeeping), without naming it.
    expect(await sql('select 1 from "uploads" where "request_id" is null and "user_id" = ?', [requester.user.id])).not.toHaveLength(0);

    const orphans = [
      (e: typeof em) => e.create(DocumentSchema, { requestId: id, name: 'Orphan.pdf', storedName: `orphan-${id}.pdf`, mimeType: 'application/pdf', size: 1 }),
      (e: typeof em) => e.create(DiscussionSchema, { requestId: id, discussionId: 'ORPHANTHREAD', topic: 'T', message: 'M', sender: 'S', senderEmail: 's@example.org' }),
      (e: typeof em) => e.create(RequestActivitySchema, { requestId: id, date: new Date(), activityType: 'Email', activityText: 'x', performedBy: 'x' }),
      (e: typeof em) => e.create(RequestEffectSchema, { requestId: id, idempotencyKey: `orphan-${id}`, kind: 'email', templateTitle: 'T', snapshot: {} }),
      (e: typeof em) => e.create(ClaimHistorySchema, { requestId: id, physician: 'No claims found' }),
    ];
    for (const write of orphans) {
      const fresh = h.orm.em.fork();
      write(fresh);
      await expect(fresh.flush()).rejects.toBeInstanceOf(ForeignKeyConstraintViolationException);
    }
    await expect(sql('insert into "uploads" ("stored_name", "user_id", "request_id", "size") values (?, ?, ?, 1)', [`orphan-${id}`, requester.user.id, id]))
      .rejects.toMatchObject({ code: '23503' }); // foreign_key_violation (a plain statement: the driver's error as it is)
  });
});
