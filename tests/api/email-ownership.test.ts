/**
 * Proven email ownership: nobody becomes an administrator, or reads someone else's request, by
 * typing an email address. Real PostgreSQL, the Temporal dev server with a worker (the account-email workflow) and
 * the SMTP sink: the confirmation link is the one that arrives by email.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailConfirmationSchema, UserSchema } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { hashPassword } from '../../services/accounts/password-hash';
import type { Received } from '../../devtools/smtp-sink';
import { call, createExternalUser, credentialingDraft, login, loginAdmin, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
beforeAll(async () => {
  h = await startHarness();
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

const stamp = Date.now();
const LINK = /\/login\/confirm-email\/([0-9a-f-]{36}\.[A-Za-z0-9_-]+)/;

async function solvedCaptcha(): Promise<string> {
  const challenge = (await call(h, null, 'GET', '/api/v1/captcha-challenge')).body as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const mailTo = (address: string, subject: string) => (m: Received) =>
  m.envelope.to.includes(address) && m.subject === subject;

async function linkSentTo(address: string): Promise<string> {
  const mail = await h.sink.waitFor(mailTo(address, 'Confirm your email address'), 60_000);
  const token = LINK.exec(mail.text ?? '')?.[1];
  if (!token) throw new Error(`no confirmation link in: ${mail.text}`);
  return token;
}

async function addAdmin(email: string) {
  const res = await call(h, admin, 'POST', '/api/v1/admins', { firstName: 'Pat', lastName: 'Boss', email });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

describe('an address typed but never proven', () => {
  it('changing one\'s own email grants nothing until the link sent to the new address is used', async () => {
    const boss = `pat.boss.${stamp}@partner.example`;
    const attackerEmail = `attacker.${stamp}@hospital.example`;
    await createExternalUser(h, attackerEmail, 'Attacker-Pass1');
    const attacker = await login(h, attackerEmail, 'Attacker-Pass1');

    const patched = await call(h, attacker, 'PATCH', `/api/v1/users/${attacker.user.id}`, { email: boss, currentPassword: 'Attacker-Pass1' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ email: attackerEmail, pendingEmail: boss, emailConfirmed: true });

    const again = await call(h, null, 'POST', '/api/v1/authentication', { strategy: 'jwt', accessToken: attacker.token });
    expect(again.body.user).toMatchObject({ email: attackerEmail, isAdmin: false, pendingEmail: boss });

    // The link went to the boss's mailbox, not the attacker's; the old address heard of the change.
    await linkSentTo(boss);
    const notice = await h.sink.waitFor(mailTo(attackerEmail, 'Your email address is being changed'), 60_000);
    expect(notice.text).toContain(boss);
  });

  it('changing one\'s email to a clinician\'s address does not show the request naming it', async () => {
    const victim = `dr.victim.${stamp}@clinic.example`;
    const draft = await credentialingDraft(h, admin, { email: victim });
    const attackerEmail = `snoop.${stamp}@hospital.example`;
    await createExternalUser(h, attackerEmail, 'Snooper-Pass1');
    const attacker = await login(h, attackerEmail, 'Snooper-Pass1');
    expect((await call(h, attacker, 'PATCH', `/api/v1/users/${attacker.user.id}`, { email: victim, currentPassword: 'Snooper-Pass1' })).status).toBe(200);

    const list = await call(h, attacker, 'GET', '/api/v1/requests?$limit=50');
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: number }) => r.id)).not.toContain(draft);
    expect((await call(h, attacker, 'GET', `/api/v1/requests/${draft}`)).status).toBe(403);
  });

  it('registering with someone\'s address gives none of their requests until the link is used, and never admin rights', async () => {
    const boss = `registered.boss.${stamp}@partner.example`;
    const named = await credentialingDraft(h, admin, { email: boss });
    const res = await call(h, null, 'POST', '/api/v1/users', {
      lastName: 'Boss', firstName: 'Pat', company: 'Partner', phone: '503-555-0101', email: boss, password: 'Boss-Pass1', altcha: await solvedCaptcha(),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: boss, emailConfirmed: false });

    const session = await login(h, boss, 'Boss-Pass1');
    expect(session.user).toMatchObject({ isAdmin: false, emailConfirmed: false });
    expect((await call(h, session, 'GET', `/api/v1/requests/${named}`)).status).toBe(403);

    // The owner of the mailbox uses the link: now the address is proven, and the next call says so.
    const token = await linkSentTo(boss);
    expect((await call(h, null, 'GET', `/api/v1/email-confirmations/${token}`)).body).toMatchObject({ isValid: true });
    expect((await call(h, null, 'PATCH', `/api/v1/email-confirmations/${token}`)).body).toEqual({ email: boss, confirmed: true });
    expect((await call(h, session, 'GET', `/api/v1/requests/${named}`)).status).toBe(200);
    // The admin list then naming the address gives a registered account nothing.
    await addAdmin(boss);
    expect((await call(h, session, 'GET', '/api/v1/admin-dashboard')).status).toBe(403);
  });
});

describe('confirmation links', () => {
  it('are single use, stored hashed, and expire after 24 hours', async () => {
    const email = `linky.${stamp}@clinic.example`;
    await createExternalUser(h, email, 'Linky-Pass1', { confirmed: false });
    const session = await login(h, email, 'Linky-Pass1');
    expect((await call(h, session, 'POST', '/api/v1/email-confirmations')).body).toEqual({ email });
    const token = await linkSentTo(email);

    const row = await h.orm.em.fork().findOneOrFail(EmailConfirmationSchema, { id: token.split('.')[0] }, { populate: ['secretHash'] });
    expect(row.secretHash).not.toContain(token.split('.')[1]);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(24 * 3_600_000);

    expect((await call(h, null, 'PATCH', `/api/v1/email-confirmations/${token}`)).status).toBe(200);
    const twice = await call(h, null, 'PATCH', `/api/v1/email-confirmations/${token}`);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe(MESSAGES.confirmationLinkInvalid);
    expect((await call(h, session, 'POST', '/api/v1/email-confirmations')).status).toBe(400); // nothing left to prove

    // An expired link: refused, and the address stays unconfirmed.
    const later = `late.${stamp}@clinic.example`;
    await createExternalUser(h, later, 'Latecomer-Pass1', { confirmed: false });
    const lateSession = await login(h, later, 'Latecomer-Pass1');
    await call(h, lateSession, 'POST', '/api/v1/email-confirmations');
    const lateToken = await linkSentTo(later);
    await h.orm.em.fork().nativeUpdate(EmailConfirmationSchema, { id: lateToken.split('.')[0] }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await call(h, null, 'PATCH', `/api/v1/email-confirmations/${lateToken}`)).status).toBe(400);
    const user = await h.orm.em.fork().findOneOrFail(UserSchema, { email: later, isExternal: true });
    expect(user.emailConfirmedAt).toBeNull();
  });

  it('limits how many links a user may ask for in an hour', async () => {
    const email = `eager.${stamp}@clinic.example`;
    await createExternalUser(h, email, 'Eager-Pass1', { confirmed: false });
    const session = await login(h, email, 'Eager-Pass1');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await call(h, session, 'POST', '/api/v1/email-confirmations')).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it('an email change takes effect only through the link sent to the new address; the old stays in force until then', async () => {
    const old = `mover.${stamp}@clinic.example`;
    const next = `moved.${stamp}@clinic.example`;
    await createExternalUser(h, old, 'Mover-Pass1');
    const session = await login(h, old, 'Mover-Pass1');
    // An administrator edits the registrant: the same confirmation applies.
    expect((await call(h, admin, 'PATCH', `/api/v1/users/${session.user.id}`, { email: next })).body).toMatchObject({ email: old, pendingEmail: next });
    await h.sink.waitFor(mailTo(old, 'Your email address is being changed'), 60_000);
    const token = await linkSentTo(next);
    expect((await login(h, old, 'Mover-Pass1')).user.email).toBe(old);

    expect((await call(h, null, 'PATCH', `/api/v1/email-confirmations/${token}`)).body).toEqual({ email: next, confirmed: true });
    const moved = await login(h, next, 'Mover-Pass1');
    expect(moved.user).toMatchObject({ email: next, emailConfirmed: true, pendingEmail: null });
    const log = await h.orm.em.fork().getConnection().execute(
      `select kind from security_events where user_id = ? order by id`, [session.user.id], 'all') as Array<{ kind: string }>;
    expect(log.map((e) => e.kind)).toContain('emailConfirmed');
  });
});

describe('administrator rights', () => {
  it('need a proven address; removal and an email change of the admin entry take effect on the next call', async () => {
    // An internal account with a password: the kind development seeds (domain/administrator-rights.ts).
    const email = `prospect.${stamp}@ohsu.example`;
    const adminId = await addAdmin(email);
    const em = h.orm.em.fork();
    em.create(UserSchema, {
      email, firstName: 'Pro', lastName: 'Spect', affiliation: 'OHSU', personType: 'Employee', isExternal: false,
      passwordHash: await hashPassword('Prospect-Pass1'), emailConfirmedAt: null,
    });
    await em.flush();
    const session = await login(h, email, 'Prospect-Pass1');
    expect(session.user.isAdmin).toBe(false);
    await h.orm.em.fork().nativeUpdate(UserSchema, { email, isExternal: false }, { emailConfirmedAt: new Date() });
    expect((await call(h, session, 'GET', '/api/v1/admin-dashboard')).status).toBe(200);

    expect((await call(h, admin, 'PATCH', `/api/v1/admins/${adminId}`, { email: `elsewhere.${stamp}@ohsu.example` })).status).toBe(200);
    expect((await call(h, session, 'GET', '/api/v1/admin-dashboard')).status).toBe(403);
    expect((await call(h, admin, 'PATCH', `/api/v1/admins/${adminId}`, { email })).status).toBe(200);
    expect((await call(h, session, 'GET', '/api/v1/admin-dashboard')).status).toBe(200);
    expect((await call(h, admin, 'DELETE', `/api/v1/admins/${adminId}`)).status).toBe(200);
    expect((await call(h, session, 'GET', '/api/v1/admin-dashboard')).status).toBe(403);
  });
});
