/**
 * Update many (spec 2 §7.1 "PATCH collection with null id and a query") is not served (docs/API.md "Differences from
 * the specification"): a PATCH on a collection answers 405 in the spec's error shape, with spec 2 §8.2's message,
 * and changes nothing; a path that is no collection stays 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestSchema } from '../../db/entities';
import { MESSAGES, STATUS } from '../../domain';
import { call, certificateDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let employee: Session;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  [admin, employee] = await Promise.all([loginAdmin(h), loginEmployee(h)]);
});
afterAll(async () => { await h?.stop(); });

describe('PATCH on a collection (update many)', () => {
  it('is refused with MethodNotAllowed and the spec\'s message, for every caller, and changes nothing', async () => {
    const id = await certificateDraft(h, employee, 'Clinician');
    for (const session of [admin, employee, null]) {
      const res = await call(h, session, 'PATCH', `/api/v1/requests?id=${id}`, { facilityName: 'Changed in bulk' });
      expect(res.status).toBe(405);
      expect(res.body).toEqual({
        name: 'MethodNotAllowed', message: MESSAGES.multiNotSupported, code: 405, className: 'method-not-allowed', data: {}, errors: {},
      });
    }
    const policies = await call(h, admin, 'PATCH', '/api/v1/policies?policyNumber=UHS-PL-2024-25', { limitClaim: '1' });
    expect(policies.status).toBe(405);
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(row).toMatchObject({ status: STATUS.draft, facilityName: 'Mercy Hospital' });
  });

  it('leaves a path that is no collection a 404, and a record\'s own PATCH as it was', async () => {
    expect((await call(h, admin, 'PATCH', '/api/v1/no-such-things', {})).status).toBe(404);
    const id = await certificateDraft(h, employee, 'Clinician');
    const one = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { facilityName: 'Providence' });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
  });
});
