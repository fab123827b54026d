/**
 * No mail relay, no oracle. Every email a user aims at an address of their choosing is counted per user and per
 * target address in PostgreSQL (domain/abuse-limits.ts CHOSEN_ADDRESS_MAIL_LIMITS): the one past the limit is
 * refused with 429 and Retry-After, nothing is sent and nothing saved is lost. An email change answers alike whether
 * or not the address has an account; the owner of a taken address gets a notice instead of a link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveChosenAddressMail } from '../../services/limits/chosen-address-mail';
import { EmailConfirmationSchema, RequestSchema } from '../../db/entities';
import { CHOSEN_ADDRESS_MAIL_LIMITS, chosenAddressMailMessage } from '../../domain/abuse-limits';
import type { Received } from '../../devtools/smtp-sink';
import { eventually } from '../support/eventually';
import { call, createExternalUser, credentialingDraft, login, loginAdmin, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';
import { apiErrorOf } from '../../api/errors';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.stop(); });

const stamp = Date.now();
const PASSWORD = 'Relay-Pass1';
const ACCOUNT = CHOSEN_ADDRESS_MAIL_LIMITS.account;
const RECIPIENTS = CHOSEN_ADDRESS_MAIL_LIMITS.requestRecipients;
const mailTo = (address: string, subject?: string) => (m: Received) => m.envelope.to.includes(address) && (!subject || m.subject === subject);
const mailsTo = (address: string) => h.sink.messages().filter(mailTo(address));

let users = 0;
async function requester(company = 'Relay Clinic'): Promise<{ email: string; session: Session }> {
  users += 1;
  const email = `relay${users}.${stamp}@${company.toLowerCase().replace(/\s+/g, '')}.example`;
  await createExternalUser(h, email, PASSWORD);
  return { email, session: await login(h, email, PASSWORD) };
}

const changeEmail = (session: Session, email: string) =>
  call(h, session, 'PATCH', `/api/v1/users/${session.user.id}`, { email, currentPassword: PASSWORD });

function expectTooMany(res: Awaited<ReturnType<typeof call>>, scope: 'perUser' | 'perAddress') {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.raw.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
  expect(res.body).toMatchObject({ name: 'TooManyRequests', code: 429, message: chosenAddressMailMessage(scope, retryAfter), data: { reason: 'tooManyEmails', scope } });
}

describe('the email-change answer tells nobody whether an address has an account', () => {
  it('a taken and a free address get the same answer; the owner of the taken one gets a notice, never a link', async () => {
    const owner = await requester('Owner Clinic');
    const asker = await requester();
    const free = `free.${stamp}@elsewhere.example`;

    const taken = await changeEmail(asker.session, owner.email.toUpperCase());
    const untaken = await changeEmail((await requester()).session, free);
    expect(taken.status).toBe(200);
    expect(untaken.status).toBe(200);
    const shape = (body: Record<string, unknown>, address: string) => ({ ...body, id: 0, email: '', lastLogin: '', pendingEmail: body.pendingEmail === address ? 'the asked address' : body.pendingEmail });
    expect(shape(taken.body, owner.email)).toEqual(shape(untaken.body, free));

    // The owner hears of it, greeted by their own account's names; the link goes only to the free address.
    const notice = await h.sink.waitFor(mailTo(owner.email, 'Someone asked to use your email address'), 60_000);
    expect(notice.text).toMatch(/^Dear Other Requester,/);
    expect(notice.text).toContain('nothing was changed and no confirmation link was sent');
    expect(notice.text).not.toContain(asker.email);
    await h.sink.waitFor(mailTo(free, 'Confirm your email address'), 60_000);
    // The workflow of this row sent the notice: its link never leaves. The activity marks the row after the mail is
    // handed over, so the mark may land a moment after the sink has the mail.
    const row = await eventually(async () => {
      const confirmation = await h.orm.em.fork().findOneOrFail(EmailConfirmationSchema, { email: owner.email });
      return confirmation.emailedAt ? confirmation : null;
    }, 60_000);
    expect(row.emailedAt).not.toBeNull();
    expect(mailsTo(owner.email).filter((m) => m.subject === 'Confirm your email address')).toHaveLength(0);
  });
});

describe('emails to chosen addresses are counted', () => {
  it(`per user: ${ACCOUNT.perUser.max / 2} email changes (two emails each) a day, the next refused with nothing changed or sent`, async () => {
    const { email, session } = await requester();
    const changes = ACCOUNT.perUser.max / 2;
    for (let i = 0; i < changes; i += 1) expect((await changeEmail(session, `hop${i}.${stamp}@elsewhere.example`)).status).toBe(200);
    const last = `hop${changes - 1}.${stamp}@elsewhere.example`;

    const refused = await changeEmail(session, `one-more.${stamp}@elsewhere.example`);
    expectTooMany(refused, 'perUser');
    expect((await call(h, session, 'GET', `/api/v1/users/${session.user.id}`)).body).toMatchObject({ email, pendingEmail: last });
    expect(await h.orm.em.fork().count(EmailConfirmationSchema, { email: `one-more.${stamp}@elsewhere.example` })).toBe(0);
    // Sending the link again is an email too (here the hourly link limit speaks first).
    expect((await call(h, session, 'POST', '/api/v1/email-confirmations')).status).toBe(429);
  });

  it(`per target address: ${ACCOUNT.perAddress.max} account emails a day from any accounts, the next refused`, async () => {
    const target = `victim.${stamp}@inbox.example`;
    for (let i = 0; i < ACCOUNT.perAddress.max; i += 1) {
      expect((await changeEmail((await requester()).session, target)).status).toBe(200);
    }
    const refused = await changeEmail((await requester()).session, target);
    expectTooMany(refused, 'perAddress');
    expect(await h.orm.em.fork().count(EmailConfirmationSchema, { email: target })).toBe(ACCOUNT.perAddress.max);
    const log = await h.orm.em.fork().getConnection().execute(
      `select detail from security_events where kind = 'quotaRefused' and detail->>'quota' = 'chosenAddressMail.account.perAddress'`, [], 'all') as unknown[];
    expect(log.length).toBeGreaterThanOrEqual(1);
  });

  it('a request\'s Recipient and Additional Recipients on submit: past the user\'s limit the submit is refused and the draft kept', async () => {
    const { session } = await requester();
    // The day's emails so far: one place left.
    await h.orm.em.fork().getConnection().execute(
      `insert into chosen_address_mail_counts (key, sent, window_ends) values (?, ?, now() + interval '5 hours')`,
      [`user|requestRecipients|${session.user.id}`, RECIPIENTS.perUser.max - 1], 'run');
    const id = await credentialingDraft(h, session, { addlRecipients: `cc1.${stamp}@payor.example; cc2.${stamp}@payor.example` });

    const refused = await call(h, session, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted', lastName: 'Kept' });
    expectTooMany(refused, 'perUser');
    expect(Number(refused.raw.headers['retry-after'])).toBeLessThanOrEqual(5 * 3600);
    const draft = await h.orm.em.fork().findOneOrFail(RequestSchema, { id });
    expect(draft).toMatchObject({ status: 'Draft', lastName: 'Kept', addlRecipients: `cc1.${stamp}@payor.example; cc2.${stamp}@payor.example` });

    // One recipient fits in the place left: the submit goes through and the confirmation reaches it.
    const submitted = await call(h, session, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted', addlRecipients: `cc1.${stamp}@payor.example` });
    expect(submitted.status).toBe(200);
    expect(submitted.body.status).toBe('Submitted');
    await h.sink.waitFor(mailTo(`cc1.${stamp}@payor.example`), 30_000);
  });

  it('a resubmission after Pending Additional Information emails the recipients again, so it counts too', async () => {
    const { session } = await requester();
    const admin = await loginAdmin(h);
    const id = await credentialingDraft(h, session);
    expect((await call(h, session, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' })).status).toBe(200);
    const asked = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Pending Additional Information' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    // The requester names new addresses while the day's places are used up, then resubmits.
    await h.orm.em.fork().getConnection().execute(
      `insert into chosen_address_mail_counts (key, sent, window_ends) values (?, ?, now() + interval '5 hours')
       on conflict (key) do update set sent = excluded.sent`,
      [`user|requestRecipients|${session.user.id}`, RECIPIENTS.perUser.max], 'run');
    const refused = await call(h, session, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted', addlRecipients: `late.${stamp}@payor.example` });
    expectTooMany(refused, 'perUser');
    expect(await h.orm.em.fork().findOneOrFail(RequestSchema, { id })).toMatchObject({ status: 'Pending Additional Information' });
  });

  it('a request recipient already mailed its day\'s limit by others refuses the submit that names it', async () => {
    const target = `popular.${stamp}@payor.example`;
    await h.orm.em.fork().getConnection().execute(
      `insert into chosen_address_mail_counts (key, sent, window_ends) values (?, ?, now() + interval '1 hour')`,
      [`address|requestRecipients|${target}`, RECIPIENTS.perAddress.max], 'run');
    const { session } = await requester();
    const id = await credentialingDraft(h, session, { addlRecipients: target });
    expectTooMany(await call(h, session, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' }), 'perAddress');
    expect((await h.orm.em.fork().findOneOrFail(RequestSchema, { id })).status).toBe('Draft');
    // The user's own count was not used by the refusal (the reservation rolled back).
    const [own] = await h.orm.em.fork().getConnection().execute(
      `select count(*)::int as n from chosen_address_mail_counts where key = ?`, [`user|requestRecipients|${session.user.id}`], 'all') as Array<{ n: number }>;
    expect(own.n).toBe(0);
  });

  it('reservations racing for the last places: exactly the limit passes, whatever the interleaving', async () => {
    const target = `race.${stamp}@inbox.example`;
    const results = await Promise.allSettled(Array.from({ length: ACCOUNT.perAddress.max * 3 }, () =>
      reserveChosenAddressMail(h.orm.em.fork(), 'account', { userId: null }, [target])));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(ACCOUNT.perAddress.max);
    // As the API answers the use case's refusal.
    for (const refused of results.filter((r) => r.status === 'rejected')) expect(apiErrorOf((refused as PromiseRejectedResult).reason)).toMatchObject({ code: 429 });
    const [row] = await h.orm.em.fork().getConnection().execute(
      `select sent from chosen_address_mail_counts where key = ?`, [`address|account|${target}`], 'all') as Array<{ sent: number }>;
    expect(row.sent).toBe(ACCOUNT.perAddress.max);
  });
});
