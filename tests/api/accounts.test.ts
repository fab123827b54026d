/**
 * Accounts on real PostgreSQL, Temporal and the SMTP sink: argon2id hashes and the upgrade of old ones,
 * JWT pinning (alg none, wrong audience), logout revocation, deactivated users, the server-side hold of expired and
 * must-change users, change password messages and the limit on guessing the current password, forgot/reset with a single-use expiring emailed link, headers.
 */
import { createHmac } from 'node:crypto';
import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PasswordResetSchema, UserSchema } from '../../db/entities';
import { passwordHashing } from '../../services/accounts/password-hash';
import { CURRENT_PASSWORD_FAILURES, CURRENT_PASSWORD_TOO_MANY, SIGN_IN_CHECK, SIGN_IN_LIMITS } from '../../domain/abuse-limits';
import { call, createExternalUser, login } from '../support/api-helpers';
import { resetRateLimits, startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness({ worker: true }); });
afterAll(async () => { await h?.stop(); });
beforeEach(async () => { await resetRateLimits(h.orm.em); });

const M = {
  current: 'Current password failed authentication',
  same: 'New password cannot be the same as the current password',
  rules: 'Password does not meet requirements',
  mismatch: "New and re-typed passwords don't match",
  confirm: 'Confirmation does not match',
  invalid: 'Invalid reset token. This token has either expired, was already used, or cannot be found in our system.',
  inactive: 'User account has been deactivated.',
};

let seq = 0;
async function freshUser(password = 'Start-Pass1') {
  const email = `acct-${Date.now()}-${seq++}@clinic.example`;
  await createExternalUser(h, email, password);
  return { email, password };
}

async function patchUser(email: string, fields: Record<string, unknown>) {
  const em = h.orm.em.fork();
  const user = await em.findOneOrFail(UserSchema, { email });
  em.assign(user, fields);
  await em.flush();
  return user;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('password hashing', () => {
  it('stores argon2id at m=19 MiB, t=2, p=1', async () => {
    const { email } = await freshUser();
    const user = await h.orm.em.fork().findOneOrFail(UserSchema, { email }, { populate: ['passwordHash'] });
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it('upgrades an old scrypt hash to argon2id at the next sign-in', async () => {
    const { email } = await freshUser();
    const salt = randomBytes(16);
    const key = scryptSync('Old-Scrypt1', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    await patchUser(email, { passwordHash: `scrypt$32768$8$1$${salt.toString('base64')}$${key.toString('base64')}` });
    await login(h, email, 'Old-Scrypt1');
    const user = await h.orm.em.fork().findOneOrFail(UserSchema, { email }, { populate: ['passwordHash'] });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    await login(h, email, 'Old-Scrypt1');
  });
});

describe('tokens and sessions', () => {
  it('refuses a forged alg:none token and a token for another audience', async () => {
    const { email, password } = await freshUser();
    const session = await login(h, email, password);
    const [, payload] = session.token.split('.');
    const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    expect((await call(h, { token: none, user: {} }, 'GET', '/api/v1/requests')).status).toBe(401);
    expect((await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: none })).status).toBe(401);

    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const header = b64url({ alg: 'HS256', typ: 'JWT' });
    const body = b64url({ ...claims, aud: 'someone-else' });
    const sig = createHmac('sha256', h.config.jwtSecret).update(`${header}.${body}`).digest('base64url');
    expect((await call(h, { token: `${header}.${body}.${sig}`, user: {} }, 'GET', '/api/v1/requests')).status).toBe(401);
    expect(claims).toMatchObject({ iss: 'coi-portal', aud: 'coi-portal-api' });
    expect(claims.exp - claims.iat).toBe(24 * 3600);
  });

  it('refuses a revoked token after logout (every call, and re-authentication)', async () => {
    const { email, password } = await freshUser();
    const session = await login(h, email, password);
    expect((await call(h, session, 'GET', '/api/v1/requests')).status).toBe(200);
    expect((await call(h, session, 'DELETE', '/api/v1/authentication')).status).toBe(200);
    expect((await call(h, session, 'GET', '/api/v1/requests')).status).toBe(401);
    const again = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: session.token });
    expect(again.status).toBe(401);
    expect(again.body.data).toEqual({ reason: 'authFail' });
    // A new sign-in works.
    expect((await call(h, await login(h, email, password), 'GET', '/api/v1/requests')).status).toBe(200);
  });

  it('says User account has been deactivated. to a deactivated user, at sign-in and on a live token', async () => {
    const { email, password } = await freshUser();
    const session = await login(h, email, password);
    await patchUser(email, { deletedAt: new Date() });
    const live = await call(h, session, 'GET', '/api/v1/requests');
    expect(live.status).toBe(401);
    expect(live.body).toMatchObject({ message: M.inactive, data: { reason: 'inactiveUser' } });
    const signIn = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'local', email, password });
    expect(signIn.status).toBe(401);
    expect(signIn.body.message).toBe(M.inactive);
  });

  it('throttles sign-in per account without locking it (429, then the right password works after the window)', async () => {
    const { email, password } = await freshUser();
    for (let i = 0; i < SIGN_IN_CHECK.accountFreeFailures; i += 1) {
      expect((await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'local', email, password: 'Wrong-Pass1' })).status).toBe(401);
    }
    // Each further guess needs a solved check (tests/api/sign-in-bursts.test.ts): the rest of the account's window as
    // those guesses would have filled it.
    await h.orm.em.fork().getConnection().execute('update rate_limit_counters set hits = ? where key = ?', [SIGN_IN_LIMITS.account.max, `signin|account|${email}`], 'run');
    // From another address: the per-account throttle, not the per-address limit.
    const res = await h.app.inject({ method: 'POST', url: '/api/v1/authentication', remoteAddress: '10.9.8.7', payload: { strategy: 'local', email, password } });
    expect(res.statusCode).toBe(429);
    expect(res.json().name).toBe('TooManyRequests');
    await resetRateLimits(h.orm.em); // the window passing
    const later = await h.app.inject({ method: 'POST', url: '/api/v1/authentication', remoteAddress: '10.9.8.6', payload: { strategy: 'local', email, password } });
    expect(later.statusCode).toBe(200);
  });

  it('sends security headers with a CSP', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'( 'unsafe-eval')?;/);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('expired and must-change users are held to the password change by the server', () => {
  it.each([
    ['an expired password (181 days, external)', { pswdResetAt: new Date(Date.now() - 181 * 24 * 3600 * 1000) }, 'isPswdExpired'],
    ['the must-change flag', { mustChangePassword: true }, 'mustChangePassword'],
  ])('%s: every route but the password change is refused', async (_label, fields, flag) => {
    const { email, password } = await freshUser();
    await patchUser(email, fields);
    const session = await login(h, email, password);
    expect(session.user[flag]).toBe(true);
    for (const [method, url] of [['GET', '/api/v1/requests'], ['GET', '/api/v1/requests/1'], ['POST', '/api/v1/requests'], ['GET', '/api/v1/documents']] as const) {
      const res = await call(h, session, method, url, method === 'POST' ? { requestType: 'credentialing' } : undefined);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.data).toEqual({ reason: 'passwordChangeRequired' });
    }
    const changed = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}/password`, { currentPassword: password, password: 'Brand-New1', confirmPassword: 'Brand-New1' });
    expect(changed.status).toBe(200);
    expect(changed.body.user).toMatchObject({ isPswdExpired: false, mustChangePassword: false });
    expect((await call(h, { token: changed.body.accessToken, user: {} }, 'GET', '/api/v1/requests')).status).toBe(200);
  });

  it('does not expire the passwords of internal users', async () => {
    const { email, password } = await freshUser();
    await patchUser(email, { isExternal: false, affiliation: 'OHSU', pswdResetAt: new Date(Date.now() - 400 * 24 * 3600 * 1000) });
    const session = await login(h, email, password);
    expect(session.user.isPswdExpired).toBe(false);
  });
});

describe('change password', () => {
  it.each([
    ['a wrong current password', { currentPassword: 'Nope-Nope1', password: 'Other-Pass1' }, M.current],
    ['a weak new password', { password: 'weakpass' }, M.rules],
    ['no uppercase', { password: 'lowercase1' }, M.rules],
    ['too short', { password: 'Ab1' }, M.rules],
    ['a different confirmation', { password: 'Other-Pass1', confirmPassword: 'Other-Pass2' }, M.mismatch],
    ['the same password', { password: 'Start-Pass1' }, M.same],
    ['an empty field', { password: '' }, 'The field above is required'],
  ])('refuses %s with the spec message', async (_label, fields, message) => {
    const { email, password } = await freshUser();
    const session = await login(h, email, password);
    const res = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}/password`, { currentPassword: password, ...fields });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('changes it: the old password and the old token stop working, the new password signs in', async () => {
    const { email, password } = await freshUser();
    const session = await login(h, email, password);
    const res = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}/password`, { currentPassword: password, password: 'Changed-Pass1', confirmPassword: 'Changed-Pass1' });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|passwordHash/);
    expect((await call(h, session, 'GET', '/api/v1/requests')).status).toBe(401);
    expect((await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'local', email, password })).status).toBe(401);
    await login(h, email, 'Changed-Pass1');
  });

  it('checks no more wrong current passwords than the window has places, even sent all at once, then answers 429 with Retry-After', async () => {
    const { email, password } = await freshUser();
    const session = await login(h, email, password);
    const url = `/api/v1/users/${session.user.id}/password`;
    const verifiedBefore = passwordHashing.verifications;
    const answers = await Promise.all(Array.from({ length: 25 }, (_, n) =>
      call(h, session, 'PATCH', url, { currentPassword: `Guess-${n}-Pass1`, password: 'Taken-Over1' })));
    const wrong = answers.filter((a) => a.status === 400 && a.body.message === M.current);
    const refused = answers.filter((a) => a.status === 429 && a.body.message === CURRENT_PASSWORD_TOO_MANY);
    expect([wrong.length, refused.length]).toEqual([CURRENT_PASSWORD_FAILURES.max, 25 - CURRENT_PASSWORD_FAILURES.max]);
    expect(passwordHashing.verifications - verifiedBefore).toBe(CURRENT_PASSWORD_FAILURES.max);
    for (const a of refused) expect(Number(a.raw.headers['retry-after'])).toBeGreaterThan(0);
    // The right password waits for the window too, and nothing was changed.
    const right = await call(h, session, 'PATCH', url, { currentPassword: password, password: 'Taken-Over1' });
    expect(right.status).toBe(429);
    await login(h, email, password);
  });

  it('counts wrong answers given with an email change in the same window, and a right answer uses up no place', async () => {
    const { email, password } = await freshUser();
    const session = await login(h, email, password);
    const passwordUrl = `/api/v1/users/${session.user.id}/password`;
    const half = CURRENT_PASSWORD_FAILURES.max / 2;
    for (let n = 0; n < half; n += 1) {
      const res = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { email: `moved-${n}-${email}`, currentPassword: `Guess-${n}-Pass1` });
      expect([res.status, res.body.message]).toEqual([400, M.current]);
    }
    // A right answer gives its place back: the email change goes through and the window still has `half` places.
    const moved = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { email: `moved-${email}`, currentPassword: password });
    expect(moved.status).toBe(200);
    for (let n = 0; n < half; n += 1) {
      const res = await call(h, session, 'PATCH', passwordUrl, { currentPassword: `Other-${n}-Pass1`, password: 'Taken-Over1' });
      expect([res.status, res.body.message]).toEqual([400, M.current]);
    }
    const next = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { email: `again-${email}`, currentPassword: password });
    expect([next.status, next.body.message]).toEqual([429, CURRENT_PASSWORD_TOO_MANY]);
  });

  it('is refused for somebody else\'s account', async () => {
    const a = await freshUser();
    const b = await freshUser();
    const sa = await login(h, a.email, a.password);
    const sb = await login(h, b.email, b.password);
    const res = await call(h, sa, 'PATCH', `/api/v1/users/${sb.user.id}/password`, { currentPassword: b.password, password: 'Hijack-Pass1' });
    expect(res.status).toBe(403);
  });
});

describe('forgot and reset password', () => {
  const linkIn = (text: string) => /\/login\/password-reset\/([^\s]+)/.exec(text)?.[1] ?? null;

  it('answers the same for unknown and known addresses, and emails a single-use link to the known one', async () => {
    const { email } = await freshUser();
    const unknown = await call(h, null, 'POST', '/api/v1/password-reset', { email: 'nobody-here@clinic.example' });
    expect(unknown.status).toBe(201);
    expect(unknown.body).toEqual({ email: 'nobody-here@clinic.example' });

    const known = await call(h, null, 'POST', '/api/v1/password-reset', { email: email.toUpperCase() });
    expect(known.status).toBe(201);
    const mail = await h.sink.waitFor((m) => m.to.includes(email), 30_000);
    const token = linkIn(mail.text)!;
    expect(token).toBeTruthy();
    // Only the hash of the secret is stored.
    const row = await h.orm.em.fork().findOneOrFail(PasswordResetSchema, { id: token.split('.')[0] });
    expect(row.secretHash).not.toContain(token.split('.')[1]);
    expect(h.sink.messages().filter((m) => m.to.includes('nobody-here@clinic.example'))).toHaveLength(0);

    expect((await call(h, null, 'GET', `/api/v1/password-reset/${token}`)).body.isValid).toBe(true);
    expect((await call(h, null, 'PATCH', `/api/v1/password-reset/${token}`, { password: 'weak', confirmPassword: 'weak' })).body.message).toBe(M.rules);
    expect((await call(h, null, 'PATCH', `/api/v1/password-reset/${token}`, { password: 'Reset-Pass1', confirmPassword: 'Reset-Pass2' })).body.message).toBe(M.confirm);
    const done = await call(h, null, 'PATCH', `/api/v1/password-reset/${token}`, { password: 'Reset-Pass1', confirmPassword: 'Reset-Pass1' });
    expect(done.status).toBe(200);
    await login(h, email, 'Reset-Pass1');

    // Single use.
    expect((await call(h, null, 'GET', `/api/v1/password-reset/${token}`)).body.isValid).toBe(false);
    const again = await call(h, null, 'PATCH', `/api/v1/password-reset/${token}`, { password: 'Again-Pass1', confirmPassword: 'Again-Pass1' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(M.invalid);
  });

  it('refuses an expired token and a tampered one', async () => {
    const { email } = await freshUser();
    await call(h, null, 'POST', '/api/v1/password-reset', { email });
    const mail = await h.sink.waitFor((m) => m.to.includes(email), 30_000);
    const token = linkIn(mail.text)!;
    const [id, secret] = token.split('.');
    const tampered = `${id}.${secret.slice(0, -2)}${secret.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await call(h, null, 'GET', `/api/v1/password-reset/${tampered}`)).body.isValid).toBe(false);
    expect((await call(h, null, 'GET', '/api/v1/password-reset/not-a-token')).body.isValid).toBe(false);
    const em = h.orm.em.fork();
    const row = await em.findOneOrFail(PasswordResetSchema, { id });
    row.expiresAt = new Date(Date.now() - 1000);
    await em.flush();
    expect((await call(h, null, 'GET', `/api/v1/password-reset/${token}`)).body.isValid).toBe(false);
    const res = await call(h, null, 'PATCH', `/api/v1/password-reset/${token}`, { password: 'Late-Pass1', confirmPassword: 'Late-Pass1' });
    expect(res.body.message).toBe(M.invalid);
  });
});
