/** Sign-in against the real PostgreSQL: exact failure message, jwt re-authentication, error shape. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADMIN, DEV_REQUESTER } from '../../db/seed-data';
import { UserSchema } from '../../db/entities';
import { call, login, signedToken } from '../support/api-helpers';

// This file tests signing in itself: its sessions come from the real thing (the password checked), not api-helpers' sessionFor.
const loginRequester = (h: Harness) => login(h, DEV_REQUESTER.email, DEV_REQUESTER.password);
const loginAdmin = (h: Harness) => login(h, DEV_ADMIN.email, DEV_ADMIN.password);
import { resetRateLimits, startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness({ worker: false }); });
afterAll(async () => { await h?.stop(); });

const LOGIN_FAILED = 'Login failed. Please confirm your email and password and try again.';

describe('POST /api/v1/authentication', () => {
  it('signs the external requester in with email and password and returns a token and the user', async () => {
    const before = Date.now();
    const res = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'local', email: DEV_REQUESTER.email, password: DEV_REQUESTER.password });
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body.user).toMatchObject({ email: DEV_REQUESTER.email, isExternal: true, isAdmin: false, company: 'Mercy Hospital' });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    const user = await h.orm.em.fork().findOneOrFail(UserSchema, { email: DEV_REQUESTER.email });
    expect(user.lastLogin!.getTime()).toBeGreaterThanOrEqual(before); // this sign-in's, however long it took
  });

  it('is case-insensitive on the email', async () => {
    const res = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'local', email: DEV_ADMIN.email.toUpperCase(), password: DEV_ADMIN.password });
    expect(res.status).toBe(200);
    expect(res.body.user.isAdmin).toBe(true);
  });

  it.each([
    ['a wrong password', DEV_REQUESTER.email, 'Wrong-Pass1'],
    ['an unknown email', 'nobody@example.com', DEV_REQUESTER.password],
    ['an empty password', DEV_REQUESTER.email, ''],
  ])('refuses %s with the spec message in the spec error shape', async (_label, email, password) => {
    const res = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'local', email, password });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ name: 'NotAuthenticated', message: LOGIN_FAILED, code: 401, className: 'not-authenticated', data: {}, errors: {} });
  });

  it('re-authenticates with strategy jwt and the stored access token', async () => {
    const session = await loginRequester(h);
    const res = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: session.token });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(DEV_REQUESTER.email);
  });

  it('refuses a tampered token', async () => {
    const session = await loginRequester(h);
    const tampered = session.token.slice(0, -3) + (session.token.endsWith('aaa') ? 'bbb' : 'aaa');
    const res = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: tampered });
    expect(res.status).toBe(401);
    expect(res.body.name).toBe('NotAuthenticated');
    const api = await call(h, { token: tampered, user: {} }, 'GET', '/api/v1/requests');
    expect(api.status).toBe(401);
  });

  it('answers an unknown strategy with BadRequest', async () => {
    const res = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'saml' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'BadRequest', className: 'bad-request' });
  });

  it('stores passwords as argon2id hashes, never in clear', async () => {
    const user = await h.orm.em.fork().findOneOrFail(UserSchema, { email: DEV_REQUESTER.email }, { populate: ['passwordHash'] });
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(user.passwordHash).not.toContain(DEV_REQUESTER.password);
  });

  it('slows down password guessing: the 21st attempt within a minute answers TooManyRequests', async () => {
    const attempt = () => call(h, null, 'POST', '/api/v1/authentication', { strategy: 'local', email: 'guess@example.com', password: 'Wrong-Pass1' });
    for (let i = 0; i < 20; i++) expect((await attempt()).status).toBe(401);
    const blocked = await attempt();
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ name: 'TooManyRequests', code: 429, className: 'too-many-requests' });
    // other accounts are not locked out by someone guessing this one
    expect((await loginRequester(h)).token).toBeTruthy();
  });

  it('counts page-load re-authentications per session, so colleagues behind one address are not refused', async () => {
    const sessions = [await loginRequester(h), await loginAdmin(h)];
    for (let i = 0; i < 15; i++) {
      for (const session of sessions) {
        const res = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: session.token });
        expect(res.status).toBe(200);
      }
    }
  });

  it('re-checks a valid token on every page change without a limit: 60 in a minute all answer', async () => {
    // An administrator working a queue changes pages dozens of times a minute; each change re-checks the session.
    await resetRateLimits(h.orm.em);
    const { accessToken } = await signedToken(h, DEV_ADMIN.email);
    for (let i = 0; i < 60; i++) {
      const res = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken });
      expect(res.status, `re-check ${i + 1}`).toBe(200);
    }
  });

  it('counts tokens the portal never signed per address: the 21st in a window is refused, a real token still passes', async () => {
    await resetRateLimits(h.orm.em);
    const { accessToken } = await signedToken(h, DEV_REQUESTER.email);
    const forged = (i: number) => `${accessToken.slice(0, accessToken.lastIndexOf('.') + 1)}forged${i}`;
    for (let i = 0; i < 20; i++) {
      const res = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: forged(i) });
      expect(res.status, `forged token ${i + 1}`).toBe(401);
    }
    const refused = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: 'not-a-token' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ name: 'TooManyRequests', code: 429 });
    expect(Number(refused.raw.headers['retry-after'])).toBeGreaterThan(0);
    // The colleague behind the same address, with a token the portal signed, is not held back by the guesses.
    const real = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken });
    expect(real.status).toBe(200);
    expect(real.body.user.email).toBe(DEV_REQUESTER.email);
  });

  it('answers an expired token of ours 401 (the session is over) however often, never 429', async () => {
    await resetRateLimits(h.orm.em);
    const user = await h.orm.em.fork().findOneOrFail(UserSchema, { email: DEV_REQUESTER.email });
    const twoDaysAgo = Math.floor(Date.now() / 1000) - 2 * 86_400;
    // Signed as a sign-in two days ago would have been: a day long, so over a day ago.
    const claims = { sub: String(user.id), sv: user.sessionVersion, iat: twoDaysAgo };
    const expired = h.app.jwt.sign(claims);
    for (let i = 0; i < 25; i++) {
      const res = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: expired });
      expect(res.status, `expired token ${i + 1}`).toBe(401);
      expect(res.body.data).toEqual({ reason: 'authFail' });
    }
  });

  it('requires a token on every resource', async () => {
    for (const url of ['/api/v1/requests', '/api/v1/admin-dashboard', '/api/v1/request-activity?requestId=1', '/api/v1/documents?requestId=1']) {
      const res = await call(h, null, 'GET', url);
      expect(res.status, url).toBe(401);
      expect(res.body.name).toBe('NotAuthenticated');
    }
  });
});
