/** Registration of external requesters: captcha required and single use, every rule and message, clean-up. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { UserSchema } from '../../db/entities';
import { DEV_REQUESTER } from '../../db/seed-data';
import { call, login } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness({ worker: false }); });
afterAll(async () => { await h?.stop(); });

async function solvedCaptcha(): Promise<string> {
  const res = await h.app.inject({ method: 'GET', url: '/api/v1/captcha-challenge', remoteAddress: `10.2.${Math.floor(Math.random() * 250)}.1` });
  const challenge = res.json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

let seq = 0;
const form = (overrides: Record<string, unknown> = {}) => ({
  lastName: 'O\u2019Neil ', firstName: ' Dana', middleInitial: 'Q.', company: ' St. Vincent Hospital ', phone: '503-555-0101',
  email: ` Dana.ONeil-${Date.now()}-${seq++}@Vincent.example `, password: 'Register-Pass1', ...overrides,
});
const register = (payload: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url: '/api/v1/users', payload, remoteAddress: `10.3.${seq % 250}.${Math.floor(Math.random() * 250)}` })
    .then((res) => ({ status: res.statusCode, body: res.json() }));

describe('POST /api/v1/users (registration)', () => {
  it('registers with a solved captcha: values cleaned, password hashed, the user signs in', async () => {
    const fields = form();
    const res = await register({ ...fields, altcha: await solvedCaptcha() });
    expect(res.status).toBe(201);
    const email = fields.email.trim().toLowerCase();
    expect(res.body).toMatchObject({ lastName: "O'Neil", firstName: 'Dana', middleInitial: 'Q', company: 'St. Vincent Hospital', email, active: true });
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon2/i);
    const user = await h.orm.em.fork().findOneOrFail(UserSchema, { email }, { populate: ['passwordHash'] });
    expect(user).toMatchObject({ isExternal: true, affiliation: 'external' });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await login(h, email, 'Register-Pass1')).user.isExternal).toBe(true);
  });

  it('refuses a registration without a solved captcha, with a forged one, and a solution used twice', async () => {
    expect((await register(form())).status).toBe(400);
    expect((await register({ ...form(), altcha: Buffer.from('{"challenge":{},"solution":{}}').toString('base64') })).status).toBe(400);
    const altcha = await solvedCaptcha();
    const decoded = JSON.parse(Buffer.from(altcha, 'base64').toString());
    const forged = Buffer.from(JSON.stringify({ ...decoded, solution: { ...decoded.solution, counter: decoded.solution.counter + 1 } })).toString('base64');
    expect((await register({ ...form(), altcha: forged })).status).toBe(400);
    expect((await register({ ...form(), altcha })).status).toBe(201);
    const again = await register({ ...form(), altcha });
    expect(again.status).toBe(400);
    expect(again.body.errors).toHaveProperty('altcha');
  });

  it('refuses a duplicate email (case-insensitive) with the spec message', async () => {
    const res = await register({ ...form({ email: DEV_REQUESTER.email.toUpperCase() }), altcha: await solvedCaptcha() });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('The email address you provided is already in use.');
  });

  it.each([
    ['a missing last name', { lastName: ' ' }, 'lastName', 'The field above is required'],
    ['a missing company', { company: '' }, 'company', 'The field above is required'],
    ['a missing phone', { phone: '' }, 'phone', 'The field above is required'],
    ['an invalid email', { email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    ['a badly formatted phone', { phone: '5035550101' }, 'phone', 'Please format like 503-123-1234'],
    ['a weak password', { password: 'password' }, 'password', 'Password does not meet requirements'],
    ['a missing password', { password: '' }, 'password', 'The field above is required'],
    ['a two-letter middle initial', { middleInitial: 'AB' }, 'middleInitial', 'Maximum 1 character'],
    ['a 201-character first name', { firstName: 'x'.repeat(201) }, 'firstName', 'Maximum 200 characters'],
  ])('refuses %s', async (_label, overrides, field, message) => {
    const res = await register({ ...form(overrides), altcha: await solvedCaptcha() });
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toBe(message);
  });

  it('is open to anonymous callers only for POST; GET users stays admin-only', async () => {
    expect((await call(h, null, 'GET', '/api/v1/users/1')).status).toBe(401);
  });
});
