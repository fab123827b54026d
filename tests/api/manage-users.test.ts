/** Manage Administrative Users and Manage External Users (spec 2 §7.11) against real PostgreSQL. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailConfirmationSchema, UserSchema } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { hashPassword } from '../../services/accounts/password-hash';
import { DEV_ADMIN, DEV_REQUESTER } from '../../db/seed-data';
import { call, createExternalUser, login, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
beforeAll(async () => {
  h = await startHarness({ worker: false });
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

const stamp = Date.now();

describe('admins', () => {
  it('lists, adds (trimmed, lowercased), edits and removes administrators; the new admin is an administrator at sign-in', async () => {
    const email = `New.Admin-${stamp}@Example.org`;
    const created = await call(h, admin, 'POST', '/api/v1/admins', { firstName: ' Nia ', lastName: ' Admin ', email: ` ${email} ` });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), firstName: 'Nia', lastName: 'Admin', email: email.toLowerCase() });
    const list = await call(h, admin, 'GET', '/api/v1/admins');
    expect(list.body.map((a: { email: string }) => a.email)).toContain(email.toLowerCase());

    // An internal account (a registered one never is an administrator): with a password, as development allows.
    const em = h.orm.em.fork();
    em.create(UserSchema, {
      email: email.toLowerCase(), firstName: 'Nia', lastName: 'Admin', affiliation: 'OHSU', personType: 'Employee', isExternal: false,
      passwordHash: await hashPassword('Promoted-Pass1'), emailConfirmedAt: new Date(),
    });
    await em.flush();
    expect((await login(h, email.toLowerCase(), 'Promoted-Pass1')).user.isAdmin).toBe(true);

    const edited = await call(h, admin, 'PATCH', `/api/v1/admins/${created.body.id}`, { lastName: 'Renamed' });
    expect(edited.body.lastName).toBe('Renamed');
    expect((await call(h, admin, 'DELETE', `/api/v1/admins/${created.body.id}`)).status).toBe(200);
    expect((await login(h, email.toLowerCase(), 'Promoted-Pass1')).user.isAdmin).toBe(false);
  });

  it('requires every field, a valid and unique email (case-insensitive)', async () => {
    const missing = await call(h, admin, 'POST', '/api/v1/admins', { firstName: ' ', lastName: 'X', email: 'x@example.org' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ firstName: 'The field above is required' });
    const invalid = await call(h, admin, 'POST', '/api/v1/admins', { firstName: 'A', lastName: 'B', email: 'not-an-email' });
    expect(invalid.body.errors).toEqual({ email: 'Please enter a valid email address' });
    const taken = await call(h, admin, 'POST', '/api/v1/admins', { firstName: 'A', lastName: 'B', email: DEV_ADMIN.email.toUpperCase() });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe('Another admin is already using this address');
  });

  it('refuses to delete your own entry or change your own email', async () => {
    const mine = (await call(h, admin, 'GET', '/api/v1/admins')).body.find((a: { email: string }) => a.email === DEV_ADMIN.email);
    expect((await call(h, admin, 'DELETE', `/api/v1/admins/${mine.id}`)).status).toBe(403);
    expect((await call(h, admin, 'PATCH', `/api/v1/admins/${mine.id}`, { email: 'other@example.org' })).status).toBe(403);
    expect((await call(h, admin, 'PATCH', `/api/v1/admins/${mine.id}`, { firstName: 'Riley' })).status).toBe(200);
  });

  it('is for administrators only', async () => {
    const requester = await loginRequester(h);
    expect((await call(h, requester, 'GET', '/api/v1/admins')).status).toBe(403);
    expect((await call(h, null, 'GET', '/api/v1/admins')).status).toBe(401);
  });
});

describe('external users', () => {
  const email = `registrant-${stamp}@mercy.example`;

  it('needs a search parameter, finds by any, and never returns the password', async () => {
    await createExternalUser(h, email, 'Registrant-Pass1');
    const none = await call(h, admin, 'GET', '/api/v1/search-registrants?lastName=%20');
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Search parameters are required.');
    const found = await call(h, admin, 'GET', `/api/v1/search-registrants?email=${encodeURIComponent(`registrant-${stamp}`)}`);
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({ email, company: 'Other Clinic', active: true });
    expect(JSON.stringify(found.body)).not.toMatch(/password|argon2/i);
    const empty = await call(h, admin, 'GET', '/api/v1/search-registrants?company=No%20Such%20Company%20Anywhere');
    expect(empty.body).toEqual([]);
    const requester = await loginRequester(h);
    expect((await call(h, requester, 'GET', '/api/v1/search-registrants?company=x')).status).toBe(403);
  });

  it('deactivates (the user hears User account has been deactivated.) and reactivates; PUT is unsupported', async () => {
    const user = (await call(h, admin, 'GET', `/api/v1/search-registrants?email=${encodeURIComponent(email)}`)).body[0];
    const session = await login(h, email, 'Registrant-Pass1');
    const off = await call(h, admin, 'PATCH', `/api/v1/users/${user.id}`, { active: false });
    expect(off.body.active).toBe(false);
    const live = await call(h, session, 'GET', '/api/v1/requests');
    expect(live.status).toBe(401);
    expect(live.body.message).toBe('User account has been deactivated.');
    const signIn = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'local', email, password: 'Registrant-Pass1' });
    expect(signIn.body.message).toBe('User account has been deactivated.');
    expect((await call(h, admin, 'PATCH', `/api/v1/users/${user.id}`, { active: true })).body.active).toBe(true);
    await login(h, email, 'Registrant-Pass1');
    expect((await call(h, admin, 'PUT', `/api/v1/users/${user.id}`, { active: true })).status).toBe(405);
    expect((await call(h, admin, 'GET', `/api/v1/users/${user.id}`)).body.email).toBe(email);
  });
});

describe('Edit Profile and Edit External Requester (PATCH users/:id)', () => {
  it('the external user edits their own profile (cleaned), not somebody else\'s, and not the active flag', async () => {
    const email = `profile-${stamp}@clinic.example`;
    const other = `profile-other-${stamp}@clinic.example`;
    await createExternalUser(h, email, 'Profile-Pass1');
    await createExternalUser(h, other, 'Profile-Pass1');
    const me = await login(h, email, 'Profile-Pass1');
    const them = await login(h, other, 'Profile-Pass1');
    const res = await call(h, me, 'PATCH', `/api/v1/users/${me.user.id}`, { lastName: ' D\u2019Souza ', middleInitial: 'R.', phone: '503-555-0111', company: 'New Clinic' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ lastName: "D'Souza", middleInitial: 'R', phone: '503-555-0111', company: 'New Clinic', email });
    expect((await call(h, me, 'GET', `/api/v1/users/${me.user.id}`)).body.lastName).toBe("D'Souza");
    expect((await call(h, me, 'PATCH', `/api/v1/users/${them.user.id}`, { company: 'Hijacked' })).status).toBe(403);
    expect((await call(h, me, 'GET', `/api/v1/users/${them.user.id}`)).status).toBe(403);
    expect((await call(h, me, 'PATCH', `/api/v1/users/${me.user.id}`, { active: false })).status).toBe(403);
    const bad = await call(h, me, 'PATCH', `/api/v1/users/${me.user.id}`, { phone: '5035550111', company: ' ' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ phone: 'Please format like 503-123-1234', company: 'The field above is required' });
    // An address another account holds: the same answer as a free one (its owner is told instead of sent a link).
    const taken = await call(h, me, 'PATCH', `/api/v1/users/${me.user.id}`, { email: other.toUpperCase(), currentPassword: 'Profile-Pass1' });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ email, pendingEmail: other });
  });

  it('an administrator edits an external requester', async () => {
    const email = `admin-edits-${stamp}@clinic.example`;
    await createExternalUser(h, email, 'Edited-Pass1');
    const user = (await call(h, admin, 'GET', `/api/v1/search-registrants?email=${encodeURIComponent(email)}`)).body[0];
    const res = await call(h, admin, 'PATCH', `/api/v1/users/${user.id}`, { firstName: 'Edited', phone: '503-555-0123', email: ` NEW-${email.toUpperCase()} ` });
    expect(res.status).toBe(200);
    // The new address waits for its confirmation link: the old one stays in force until then.
    expect(res.body).toMatchObject({ firstName: 'Edited', email, pendingEmail: `new-${email}` });
    await login(h, email, 'Edited-Pass1');
  });

  it('an administrator changing an email to one another account holds is told it is in use; nothing is saved or sent', async () => {
    const email = `admin-dup-${stamp}@clinic.example`;
    const holder = `admin-dup-holder-${stamp}@clinic.example`;
    await createExternalUser(h, email, 'Edited-Pass1');
    await createExternalUser(h, holder, 'Edited-Pass1');
    const user = (await call(h, admin, 'GET', `/api/v1/search-registrants?email=${encodeURIComponent(email)}`)).body[0];
    for (const taken of [holder.toUpperCase(), DEV_REQUESTER.email]) {
      const res = await call(h, admin, 'PATCH', `/api/v1/users/${user.id}`, { firstName: 'Renamed', email: taken });
      expect(res.status, taken).toBe(409);
      expect(res.body).toMatchObject({ name: 'Conflict', message: MESSAGES.emailInUse, data: { reason: 'emailInUse' }, errors: { email: MESSAGES.emailInUse } });
    }
    const after = (await call(h, admin, 'GET', `/api/v1/users/${user.id}`)).body;
    expect(after).toMatchObject({ email, pendingEmail: null, firstName: 'Other' });
    // No link and no notice were started: nothing waits to be mailed to either address.
    expect(await h.orm.em.fork().count(EmailConfirmationSchema, { userId: user.id })).toBe(0);
    // A free address still goes through as before.
    const free = await call(h, admin, 'PATCH', `/api/v1/users/${user.id}`, { email: `admin-dup-free-${stamp}@clinic.example` });
    expect(free.status).toBe(200);
    expect(free.body.pendingEmail).toBe(`admin-dup-free-${stamp}@clinic.example`);
  });
});
