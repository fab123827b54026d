/**
 * PATCH /requests/:id commands and the request version: a status change made on a version the caller no longer
 * sees answers 409; the caller's own form save in the same call does not count as a change by someone else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateRequestBody, PatchRequestBody } from '../../contract/request.schema';
import { RequestSchema } from '../../db/entities';
import { call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let owner: Session;
let admin: Session;

beforeAll(async () => {
  // No worker: a command that reaches the workflow is admitted and waits; the API answers 503 after this timeout.
  h = await startHarness({ worker: false, env: { WORKFLOW_ANSWER_TIMEOUT_MS: '1500' } });
  owner = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

/** A request as if submitted (numbered, status Submitted) at a known version, without running the workflow. */
async function submittedRequest(version: number): Promise<number> {
  const id = await credentialingDraft(h, owner);
  await h.orm.em.fork().nativeUpdate(RequestSchema, { id }, { requestNumber: 770_000 + id, status: 'Submitted', version });
  return id;
}

describe('request bodies', () => {
  it("are typed by the kinds' declared fields: an undeclared field or a value of the wrong kind does not compile", () => {
    const save: PatchRequestBody = { lastName: 'Smith', releaseAuthorized: true, version: 2 };
    // @ts-expect-error no kind declares `nickname`
    const undeclared: PatchRequestBody = { nickname: 'Bob' };
    // @ts-expect-error a checkbox takes a boolean
    const wrongKind: CreateRequestBody = { requestType: 'credentialing', releaseAuthorized: 'yes' };
    expect([save, undeclared, wrongKind]).toHaveLength(3);
  });
});

describe('PATCH /requests/:id version', () => {
  it('answers 409 Conflict to a status change made on an older version, and changes nothing', async () => {
    const id = await submittedRequest(5);
    const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Approved', verified: true, version: 4 });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ name: 'Conflict', code: 409, className: 'conflict' });
    expect(Object.keys(res.body).sort()).toEqual(['className', 'code', 'data', 'errors', 'message', 'name']);
    const reopen = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Draft', version: 3 });
    expect(reopen.status).toBe(409);
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(row).toMatchObject({ status: 'Submitted', version: 5 });
  });

  it('judges a status change sent with form fields on the version loaded before its own save', async () => {
    const id = await submittedRequest(5);
    // Saving lastName bumps the version to 6; the command must still count as made on 5 (not a conflict).
    const res = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { lastName: 'Renamed', status: 'Pending Employment', version: 5 });
    expect(res.status).toBe(503); // reached the workflow, which has no worker here
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(row).toMatchObject({ lastName: 'Renamed', status: 'Submitted' });
  });

  it('refuses a version that is not a positive integer', async () => {
    const id = await credentialingDraft(h, owner);
    const res = await call(h, owner, 'PATCH', `/api/v1/requests/${id}`, { title: 'Dr', version: 'latest' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('version');
  });
});
