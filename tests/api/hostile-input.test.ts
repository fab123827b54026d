/**
 * What the fuzz test (tests/api/fuzz.test.ts) found, kept as plain regression tests: a body can set
 * only the fields its schema names (an external requester once made themself internal through their own profile),
 * and input PostgreSQL cannot store is a 400 in the spec's shape, not a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserSchema } from '../../db/entities';
import { NOT_A_NUMBER_MESSAGE, NUL_CHARACTER_MESSAGE } from '../../api/plugins/storable-input';
import { UNREADABLE_MULTIPART_MESSAGE } from '../../api/plugins/error-handler';
import { call, createExternalUser, login, loginAdmin, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let requester: Session;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  admin = await loginAdmin(h);
  const email = `hostile-${Date.now()}@clinic.example`;
  await createExternalUser(h, email, 'Hostile-Pass1');
  requester = await login(h, email, 'Hostile-Pass1');
});
afterAll(async () => { await h?.stop(); });

describe('a body sets only the fields its schema names', () => {
  it('an external requester cannot make themself internal, or touch their session, through their profile', async () => {
    const res = await call(h, requester, 'PATCH', `/api/v1/users/${requester.user.id}`, {
      phone: '503-555-0199', isExternal: false, personType: 'Employee', sessionVersion: 99, passwordHash: null, emailConfirmedAt: null, id: 1,
    });
    expect(res.status).toBe(200);
    const row = await h.orm.em.fork().findOneOrFail(UserSchema, { id: requester.user.id }, { populate: ['passwordHash'] as never });
    expect(row).toMatchObject({ phone: '503-555-0199', isExternal: true, personType: null, sessionVersion: 0 });
    expect(row.passwordHash).toBeTruthy();
    expect(row.emailConfirmedAt).not.toBeNull();
    expect((await call(h, requester, 'GET', '/api/v1/people?lastName=Staffer&firstName=Jordan')).status).toBe(403); // still external
  });

  it('an administrator\'s directory edit cannot change a person\'s id', async () => {
    const res = await call(h, admin, 'PATCH', '/api/v1/people/1', { id: 999, title: 'Program Manager' });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(1);
  });
});

describe('input PostgreSQL cannot store', () => {
  it.each(['Infinity', '-Infinity', '1e309', '2147483648', '99999999999999999999'])('an id of %s is a 400', async (id) => {
    const res = await call(h, admin, 'GET', `/api/v1/policies/${id}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request' });
  });

  it('a paging number that is not finite is a 400 naming the field', async () => {
    const res = await call(h, admin, 'GET', '/api/v1/security-log?$skip=Infinity');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ $skip: NOT_A_NUMBER_MESSAGE });
  });

  it('a NUL character in the query or the body is a 400 naming the field, and nothing is saved', async () => {
    const query = await call(h, admin, 'GET', '/api/v1/users?email=x%00y');
    expect(query.status).toBe(400);
    expect(query.body.errors).toEqual({ email: NUL_CHARACTER_MESSAGE });
    const body = await call(h, requester, 'PATCH', `/api/v1/users/${requester.user.id}`, { company: 'Mercy\u0000Hospital' });
    expect(body.status).toBe(400);
    expect(body.body.errors).toEqual({ company: NUL_CHARACTER_MESSAGE });
    expect((await h.orm.em.fork().findOneOrFail(UserSchema, { id: requester.user.id })).company).toBe('Other Clinic');
  });

  it('a body that says it is multipart but is not is a 400', async () => {
    for (const [payload, type] of [['not multipart at all', 'multipart/form-data'], ['--x\r\nContent-Disposition: form-data; name="limit"\r\n\r\n1', 'multipart/form-data; boundary=x']]) {
      const res = await h.app.inject({ method: 'POST', url: '/api/v1/cs-stars', payload, headers: { 'content-type': type, authorization: `Bearer ${admin.token}` } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ name: 'BadRequest', message: UNREADABLE_MULTIPART_MESSAGE });
    }
  });
});
