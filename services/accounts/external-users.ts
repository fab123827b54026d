/**
 * External users as administrators see them (spec 2 §7.11, spec 1 §5 External user search): a search needs at
 * least one non-empty parameter (trimmed, curly apostrophes made straight); deactivating sets `deletedAt`, which
 * refuses the user's sign-in and every live token with `User account has been deactivated.`.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSchema, type User } from '../../db/entities';
import { cleanProfile, cleanText, MESSAGES, toldEmailInUse, validateProfile } from '../../domain';
import { conflict, forbidden, invalid, notFound } from '../refusals';
import { reserveChosenAddressMail } from '../limits/chosen-address-mail';
import { assertPasswordAccountAddress } from './password-account-addresses';
import { assertCurrentPassword } from './current-password';
import type { RegistrantSearchQuery, UserFindQuery, UserPatchBody } from '../../contract/external-user.schema';
import type { SessionUser } from '../../contract/session-user.schema';
import { type ConfirmationContext, emailHeldByAnother, sendConfirmationLink } from './email-confirmations';
import { recordSecurityEvent } from '../desk/security-log';

export const externalUserView = (u: User) => ({
  id: u.id, firstName: u.firstName, lastName: u.lastName, middleInitial: u.middleInitial ?? null, company: u.company ?? null,
  email: u.email, phone: u.phone ?? null, active: !u.deletedAt, lastLogin: u.lastLogin?.toISOString() ?? null,
  emailConfirmed: !!u.emailConfirmedAt, pendingEmail: u.pendingEmail ?? null,
});

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** External users whose fields contain the given texts (case-insensitive), and whether any text was given. */
function externalUsersWhere(query: RegistrantSearchQuery): { where: Record<string, unknown>; any: boolean } {
  const where: Record<string, unknown> = { isExternal: true };
  let any = false;
  for (const key of ['lastName', 'firstName', 'company', 'email'] as const) {
    const value = cleanText(query[key]) ?? '';
    if (!value) continue;
    any = true;
    where[key] = { $ilike: `%${escapeLike(value)}%` };
  }
  return { where, any };
}

const BY_NAME = { lastName: 'asc', firstName: 'asc', id: 'asc' } as const;

export async function searchRegistrants(em: EntityManager, query: RegistrantSearchQuery) {
  const { where, any } = externalUsersWhere(query);
  if (!any) throw invalid(MESSAGES.searchParametersRequired);
  const users = await em.find(UserSchema, where, { orderBy: BY_NAME, limit: 1000 });
  return users.map(externalUserView);
}

/** `GET users`: a page of external users (filters optional), counted by the database. */
export async function findExternalUsers(em: EntityManager, query: UserFindQuery) {
  const { where } = externalUsersWhere(query);
  const limit = query.$limit ?? 1000;
  const skip = query.$skip ?? 0;
  const [users, total] = await em.findAndCount(UserSchema, where, { orderBy: BY_NAME, limit, offset: skip });
  return { total, limit, skip, data: users.map(externalUserView) };
}

async function externalUser(em: EntityManager, id: number) {
  const user = await em.findOne(UserSchema, { id, isExternal: true });
  if (!user) throw notFound();
  return user;
}

/** Administrators see any external user; an external user sees only themself. */
function assertMayEdit(me: SessionUser, id: number) {
  if (!me.isAdmin && !(me.isExternal && me.id === id)) throw forbidden();
}

export async function getExternalUser(em: EntityManager, me: SessionUser, id: number) {
  assertMayEdit(me, id);
  return externalUserView(await externalUser(em, id));
}

/**
 * Edit Profile (the external user) and Edit External Requester (an administrator): the registration rules without
 * the password. Only administrators change `active`.
 *
 * A new email does not replace the one in force: it waits in `pendingEmail` until the link sent to it is
 * used, and the address in force is told of the change. So typing an address never grants what that address would.
 * Before anything is saved or sent: the address may not be a university or admin-list one, the user changing their
 * own asks with their current password, and the two emails fit the daily limits. An address another account holds
 * is refused for an administrator (409, spec 2 §8.3: they can list every account, and must not be told a link went
 * out); the user changing their own gets the same answer as for any other (its owner is told instead of sent a
 * link), so the profile page reveals no account (domain/registration.ts toldEmailInUse).
 */
const PROFILE_FIELDS = ['lastName', 'firstName', 'middleInitial', 'company', 'phone', 'email'] as const;

export async function patchExternalUser(ctx: ConfirmationContext, me: SessionUser, id: number, body: UserPatchBody) {
  const { em } = ctx;
  assertMayEdit(me, id);
  const user = await externalUser(em, id);
  // Only the profile's own fields, named one by one: never assign what a caller sent as is (an `isExternal` or a
  // `sessionVersion` in the body would otherwise reach the row).
  const { active } = body;
  const profile = Object.fromEntries(PROFILE_FIELDS.map((key) => [key, body[key]]).filter(([, value]) => value !== undefined));
  if (active !== undefined && !me.isAdmin) throw forbidden('Only administrators deactivate or reactivate users');
  let changedTo: string | null = null;
  if (Object.keys(profile).length) {
    const current = {
      lastName: user.lastName, firstName: user.firstName, middleInitial: user.middleInitial ?? '', company: user.company ?? '',
      phone: user.phone ?? '', email: user.email,
    };
    const fields = cleanProfile({ ...current, ...Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined)) });
    const errors = validateProfile(fields, false);
    if (Object.keys(errors).length) throw invalid(Object.values(errors)[0], errors);
    if (fields.email !== user.email && fields.email !== user.pendingEmail) {
      await assertPasswordAccountAddress(em, ctx.config, fields.email);
      if (toldEmailInUse(me) && await emailHeldByAnother(em, fields.email, user.id)) {
        throw conflict(MESSAGES.emailInUse, { email: MESSAGES.emailInUse }, { reason: 'emailInUse' });
      }
      if (me.id === user.id) {
        if (!body.currentPassword) throw invalid(MESSAGES.currentPasswordForEmail, { currentPassword: MESSAGES.currentPasswordForEmail });
        await assertCurrentPassword(em, user.id, body.currentPassword);
      }
      await reserveChosenAddressMail(em, 'account', { userId: me.id, isAdmin: me.isAdmin, email: me.email, ip: ctx.ip }, [fields.email, user.email]);
    }
    const { email, ...rest } = fields;
    em.assign(user, { ...rest, middleInitial: fields.middleInitial || null });
    if (email === user.email) user.pendingEmail = null; // changed back before confirming: nothing waits any more
    else if (email !== user.pendingEmail) changedTo = email;
  }
  const wasActive = !user.deletedAt;
  if (active !== undefined) user.deletedAt = active ? null : (user.deletedAt ?? new Date());
  if (changedTo) user.pendingEmail = changedTo;
  await em.flush();
  if (changedTo) {
    await recordSecurityEvent(em, { kind: 'emailChangeRequested', userId: user.id, email: changedTo, ip: ctx.ip, detail: { from: user.email, by: me.id } });
    await sendConfirmationLink(ctx, user, changedTo, user.email);
  }
  if (active !== undefined && active !== wasActive) {
    await recordSecurityEvent(em, { kind: active ? 'userReactivated' : 'userDeactivated', userId: me.id, email: user.email, ip: ctx.ip, detail: { user: user.id } });
  }
  return externalUserView(user);
}
