/**
 * Administrators only on the university's word. The attack: an external requester moves its email to an address
 * about to be (or already) on the admin list, the owner of that mailbox clicks the confirmation link, and the
 * password account signs in as an administrator. Real PostgreSQL, the account-email workflow on the Temporal dev
 * server, and the SMTP sink: the links are the ones that arrive by email.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailConfirmationSchema, UserSchema } from '../../db/entities';
import { hashPassword } from '../../services/accounts/password-hash';
import { MESSAGES, UNIVERSITY_ADDRESS_MESSAGE } from '../../domain';
import type { Received } from '../../devtools/smtp-sink';
import { call, createExternalUser, login, loginAdmin, type Session } from '../support/api-helpers';
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
const mailTo = (address: string, subject: string) => (m: Received) => m.envelope.to.includes(address) && m.subject === subject;

async function addAdmin(email: string): Promise<number> {
  const res = await call(h, admin, 'POST', '/api/v1/admins', { firstName: 'Pat', lastName: 'Boss', email });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function attacker(name: string): Promise<{ email: string; password: string; session: Session }> {
  const email = `${name}.${stamp}@hospital.example`;
  const password = 'Attacker-Pass1';
  await createExternalUser(h, email, password);
  return { email, password, session: await login(h, email, password) };
}

const pendingLinks = (email: string) => h.orm.em.fork().count(EmailConfirmationSchema, { email });

describe('the confirm-link administrator path', () => {
  it('an external account whose proven email goes on the admin list never signs in as an administrator', async () => {
    // The owner's outside address, not yet on the list: the change is accepted and its link goes to the owner.
    const boss = `pat.boss.${stamp}@partner.example`;
    const { password, session } = await attacker('mallory');
    const patched = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { email: boss, firstName: 'Pat', lastName: 'Boss', currentPassword: password });
    expect(patched.status).toBe(200);
    const mail = await h.sink.waitFor(mailTo(boss, 'Confirm your email address'), 60_000);
    const token = LINK.exec(mail.text ?? '')?.[1];
    expect(token).toBeTruthy();
    // The owner clicks, expecting access; then OPERATIONS' first-day step puts the address on the admin list.
    expect((await call(h, null, 'PATCH', `/api/v1/email-confirmations/${token}`)).body).toEqual({ email: boss, confirmed: true });
    await addAdmin(boss);

    const signedIn = await login(h, boss, password);
    expect(signedIn.user).toMatchObject({ email: boss, emailConfirmed: true, isExternal: true, isAdmin: false });
    expect((await call(h, signedIn, 'GET', '/api/v1/admin-dashboard')).status).toBe(403);
    expect((await call(h, signedIn, 'GET', '/api/v1/admins')).status).toBe(403);
  });

  it('the confirmation email names the account being confirmed and says what confirming does', async () => {
    const target = `someone.${stamp}@partner.example`;
    const { password, session } = await attacker('namer');
    await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { email: target, company: 'Mercy Clinic', currentPassword: password });
    const mail = await h.sink.waitFor(mailTo(target, 'Confirm your email address'), 60_000);
    expect(mail.text).toContain('Name: Other Requester');
    expect(mail.text).toContain('Company: Mercy Clinic');
    expect(mail.text).toMatch(/Registered: \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M/);
    expect(mail.text).toContain('It never gives administrator rights.');
    expect(mail.text).toContain('If you do not recognise this account, do not use the link');
    expect(mail.text).not.toMatch(/^Dear /); // the reader may not be the account's holder

    // The page the link opens says the same before anything is confirmed.
    const token = LINK.exec(mail.text ?? '')![1];
    const page = await call(h, null, 'GET', `/api/v1/email-confirmations/${token}`);
    expect(page.body).toMatchObject({
      isValid: true, account: { email: target, firstName: 'Other', lastName: 'Requester', company: 'Mercy Clinic', isChange: true },
    });
    expect(Date.parse(page.body.account.registeredAt)).toBeLessThanOrEqual(Date.now());
    expect((await call(h, null, 'GET', '/api/v1/email-confirmations/00000000-0000-0000-0000-000000000000.x')).body).toEqual({ isValid: false });
  });

  it('the seeded internal administrator (a password account, development only) stays an administrator', async () => {
    expect(admin.user.isAdmin).toBe(true);
    expect((await call(h, admin, 'GET', '/api/v1/admin-dashboard')).status).toBe(200);
  });

  it('an internal account on the admin list needs a proven address', async () => {
    const email = `internal.admin.${stamp}@ohsu.example`;
    const em = h.orm.em.fork();
    em.create(UserSchema, {
      email, firstName: 'In', lastName: 'Ternal', affiliation: 'OHSU', personType: 'Employee', isExternal: false,
      passwordHash: await hashPassword('Internal-Pass1'), emailConfirmedAt: null,
    });
    await em.flush();
    await addAdmin(email);
    expect((await login(h, email, 'Internal-Pass1')).user.isAdmin).toBe(false);
    await h.orm.em.fork().nativeUpdate(UserSchema, { email }, { emailConfirmedAt: new Date() });
    expect((await login(h, email, 'Internal-Pass1')).user.isAdmin).toBe(true);
  });
});

describe('addresses a registered account may not take', () => {
  it('an email change to an admin-list or university address is refused, pointing to single sign-on, and nothing is sent', async () => {
    const listed = `listed.boss.${stamp}@partner.example`;
    await addAdmin(listed);
    const { email, password, session } = await attacker('climber');
    for (const address of [listed, `dean.${stamp}@ohsu.example`, `student.${stamp}@students.ohsu.example`]) {
      const res = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { email: address.toUpperCase(), currentPassword: password });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ name: 'BadRequest', message: UNIVERSITY_ADDRESS_MESSAGE, errors: { email: UNIVERSITY_ADDRESS_MESSAGE } });
      expect(await pendingLinks(address)).toBe(0);
    }
    expect(UNIVERSITY_ADDRESS_MESSAGE).toContain('single sign-on');
    const after = await call(h, session, 'GET', `/api/v1/users/${session.user.id}`);
    expect(after.body).toMatchObject({ email, pendingEmail: null });
    // An administrator editing a registrant meets the same rule.
    expect((await call(h, admin, 'PATCH', `/api/v1/users/${session.user.id}`, { email: listed })).status).toBe(400);
  });

  it('registration with an admin-list or university address is refused, and no account is made', async () => {
    const listed = `listed.registrant.${stamp}@partner.example`;
    await addAdmin(listed);
    for (const address of [listed, `new.hire.${stamp}@ohsu.example`]) {
      const res = await call(h, null, 'POST', '/api/v1/users', {
        lastName: 'Boss', firstName: 'Pat', company: 'OHSU', phone: '503-555-0101', email: address, password: 'Boss-Pass1', altcha: await solvedCaptcha(),
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ email: UNIVERSITY_ADDRESS_MESSAGE });
      expect(await h.orm.em.fork().count(UserSchema, { email: address })).toBe(0);
    }
  });
});

describe('changing one\'s email asks for the current password', () => {
  it('missing or wrong: a clear error on the field, and nothing changed or sent', async () => {
    const { email, password, session } = await attacker('forgetful');
    const target = `forgetful.new.${stamp}@partner.example`;
    const missing = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { email: target, firstName: 'Changed' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ currentPassword: MESSAGES.currentPasswordForEmail });
    const wrong = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { email: target, firstName: 'Changed', currentPassword: 'Not-The-Pass1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: MESSAGES.currentPasswordFailed, errors: { currentPassword: MESSAGES.currentPasswordFailed } });
    expect((await call(h, session, 'GET', `/api/v1/users/${session.user.id}`)).body).toMatchObject({ email, firstName: 'Other', pendingEmail: null });
    expect(await pendingLinks(target)).toBe(0);

    // Other fields change without it; the right password lets the email change through.
    expect((await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { phone: '503-555-0199' })).status).toBe(200);
    const right = await call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { email: target, currentPassword: password });
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ email, pendingEmail: target });
  });
});

async function solvedCaptcha(): Promise<string> {
  const { solveChallenge } = await import('altcha-lib');
  const { deriveKey } = await import('altcha-lib/algorithms/sha');
  const challenge = (await call(h, null, 'GET', '/api/v1/captcha-challenge')).body;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
