/**
 * Registration of external requesters (spec 1 §5 Registration, spec 2 §8.3): a solved captcha first, the clean-up
 * and rules of domain/registration.ts, an email unique case-insensitively (409 with the spec's message), the
 * password hashed with argon2id and its 180-day clock started. University and admin-list addresses are refused
 * (their owners sign in through single sign-on). The account starts with its email unconfirmed and a
 * confirmation link goes to it: it may sign in and file requests at once, but nothing is granted by the
 * address until the link is used.
 */
import { UserSchema } from '../../db/entities';
import { cleanProfile, MESSAGES, validateProfile } from '../../domain';
import { hashPassword } from './password-hash';
import { conflict, invalid } from '../refusals';
import type { RegistrationBody } from '../../contract/registration.schema';
import { reserveChosenAddressMail } from '../limits/chosen-address-mail';
import { type ConfirmationContext, sendConfirmationLink } from './email-confirmations';
import { assertPasswordAccountAddress } from './password-account-addresses';
import { externalUserView } from './external-users';
import { recordSecurityEvent } from '../desk/security-log';

/**
 * `provesHuman`: the door's own check that a person, not a script, registers (the API's: a solved sign-up check, in
 * `altcha`). It is asked after the fields pass and before the address is looked up, so addresses cannot be probed
 * without passing it.
 */
export async function registerExternalUser(ctx: ConfirmationContext, body: RegistrationBody, provesHuman: (proof: string | undefined) => Promise<boolean>) {
  const { em } = ctx;
  const { altcha, ...rest } = body;
  const fields = cleanProfile({ middleInitial: '', ...rest });
  const errors = validateProfile(fields, true);
  if (Object.keys(errors).length) throw invalid(Object.values(errors)[0], errors);
  if (!(await provesHuman(altcha))) throw invalid(MESSAGES.captchaRequired, { altcha: MESSAGES.captchaRequired });
  await assertPasswordAccountAddress(em, ctx.config, fields.email);
  if (await em.count(UserSchema, { email: fields.email })) throw conflict(MESSAGES.emailInUse, { email: MESSAGES.emailInUse }, { reason: 'emailInUse' });
  // The confirmation link is an email to a typed address: counted for that address before the account exists.
  await reserveChosenAddressMail(em, 'account', { userId: null, email: fields.email, ip: ctx.ip }, [fields.email]);
  const user = em.create(UserSchema, {
    email: fields.email, firstName: fields.firstName, lastName: fields.lastName, middleInitial: fields.middleInitial || null,
    company: fields.company, phone: fields.phone, affiliation: 'external', isExternal: true,
    passwordHash: await hashPassword(fields.password), pswdResetAt: new Date(), emailConfirmedAt: null,
  });
  try {
    await em.flush();
  } catch (error) {
    // Two registrations of one address at the same moment: the unique index decides.
    if ((error as { code?: string }).code === '23505' || /unique/i.test(String(error))) {
      throw conflict(MESSAGES.emailInUse, { email: MESSAGES.emailInUse }, { reason: 'emailInUse' });
    }
    throw error;
  }
  await recordSecurityEvent(em, { kind: 'registered', userId: user.id, email: user.email, ip: ctx.ip });
  // The account stands even if the link cannot be queued now: the dashboard banner sends it again.
  await sendConfirmationLink(ctx, user, user.email).catch(() => undefined);
  return externalUserView(user);
}
