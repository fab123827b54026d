/**
 * Signs in the person an accepted SAML assertion vouches for: the internal user is created on the first sign-in and
 * brought up to date on every later one (names, email, employee id, Employee or Student), lastLogin recorded. The
 * admin flag is not stored: it follows the admin list at every call (api/sessions/session-user.ts). The university
 * vouches for the address it asserts, so the user's email counts as proven.
 *
 * Found among internal users by email, then by employee id, so a changed address keeps its account. Shared IS codes
 * (students, other non-employees carry one as their id) never identify anyone.
 *
 * Single sign-on never takes over an account it did not create: an external account with the asserted
 * address is linked only when that account proved its email (a confirmation link), and then its password and every
 * token it held end (the university is now the authority). An unconfirmed external account with that address is left
 * as it was, and the internal user is created apart from it (emails are unique per kind of account).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { EmailConfirmationSchema, PasswordResetSchema, UserSchema, type User } from '../../db/entities';
import { isSharedIsCode } from '../../domain';
import type { SsoIdentity } from '../../domain/single-sign-on';
import { SsoRefused } from '../auth/saml/service-provider';
import { recordSecurityEvent } from '../../services/desk/security-log';

async function findInternalUser(em: EntityManager, identity: SsoIdentity): Promise<User | null> {
  const byEmail = await em.findOne(UserSchema, { email: identity.email, isExternal: false });
  if (byEmail || isSharedIsCode(identity.entityId)) return byEmail;
  return em.findOne(UserSchema, { entityId: identity.entityId, isExternal: false }, { orderBy: { lastLogin: 'desc nulls last' } });
}

/** An external account with the asserted address that proved it owns it: the one single sign-on may link. */
const linkableExternal = (em: EntityManager, identity: SsoIdentity) =>
  em.findOne(UserSchema, { email: identity.email, isExternal: true, emailConfirmedAt: { $ne: null } }, { populate: ['passwordHash'] });

export async function signInWithSso(em: EntityManager, identity: SsoIdentity, ip: string | null = null): Promise<User> {
  let user = await findInternalUser(em, identity);
  let outcome: 'updated' | 'created' | 'linked' = 'updated';
  if (!user) {
    user = await linkableExternal(em, identity);
    if (user) {
      if (user.deletedAt) throw new SsoRefused('inactiveUser', `user ${user.id} is deactivated`);
      outcome = 'linked';
      // The university is the authority from now on: no password, and every token the account held is refused.
      user.passwordHash = null;
      user.sessionVersion += 1;
      user.pendingEmail = null;
      user.company = null;
      // Links already mailed would hand a password (a reset) or an address (a pending change) back: spend them.
      const spentAt = new Date();
      await em.nativeUpdate(PasswordResetSchema, { userId: user.id, usedAt: null }, { usedAt: spentAt });
      await em.nativeUpdate(EmailConfirmationSchema, { userId: user.id, usedAt: null }, { usedAt: spentAt });
    }
  }
  if (user?.deletedAt) throw new SsoRefused('inactiveUser', `user ${user.id} is deactivated`);
  const fields = {
    entityId: identity.entityId,
    affiliation: identity.affiliation,
    personType: identity.personType,
    email: identity.email,
    firstName: identity.firstName,
    lastName: identity.lastName,
    middleInitial: identity.middleInitial,
    isExternal: false,
    emailConfirmedAt: user?.emailConfirmedAt ?? new Date(),
    lastLogin: new Date(),
  };
  if (user) em.assign(user, fields);
  else {
    outcome = 'created';
    user = em.create(UserSchema, fields);
  }
  await em.flush();
  await recordSecurityEvent(em, { kind: 'singleSignOn', userId: user.id, email: user.email, ip, detail: { outcome } });
  return user;
}
