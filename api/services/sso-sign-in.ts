/**
 * Signs in the person an accepted SAML assertion vouches for: the user is created on the first sign-in and brought up
 * to date on every later one (names, email, employee id, Employee or Student), lastLogin recorded. The admin flag is
 * not stored: it follows the admin list at every call (api/services/session-user.ts).
 *
 * Found by email first (unique; the university vouches for its addresses, so an account registered earlier with the
 * same address becomes this internal user), then by employee id, so a changed address keeps its account. Shared IS
 * codes (students, other non-employees carry one as their id) never identify anyone.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSchema, type User } from '../../db/entities';
import { NON_EMPLOYEE_IS_CODES, STUDENT_IS_CODE } from '../../domain';
import type { SsoIdentity } from '../../domain/single-sign-on';
import { SsoRefused } from '../auth/saml/service-provider';

const SHARED_IDS = new Set<string>([STUDENT_IS_CODE, ...NON_EMPLOYEE_IS_CODES.map((c) => c.code)]);

async function findUser(em: EntityManager, identity: SsoIdentity): Promise<User | null> {
  const byEmail = await em.findOne(UserSchema, { email: identity.email });
  if (byEmail || SHARED_IDS.has(identity.entityId)) return byEmail;
  return em.findOne(UserSchema, { entityId: identity.entityId, isExternal: false }, { orderBy: { lastLogin: 'desc nulls last' } });
}

export async function signInWithSso(em: EntityManager, identity: SsoIdentity): Promise<User> {
  const existing = await findUser(em, identity);
  if (existing?.deletedAt) throw new SsoRefused('inactiveUser', `user ${existing.id} is deactivated`);
  const fields = {
    entityId: identity.entityId,
    affiliation: identity.affiliation,
    personType: identity.personType,
    email: identity.email,
    firstName: identity.firstName,
    lastName: identity.lastName,
    middleInitial: identity.middleInitial,
    isExternal: false,
    // the university vouches for the address it asserts
    emailConfirmedAt: existing?.emailConfirmedAt ?? new Date(),
    lastLogin: new Date(),
  };
  const user = existing ? em.assign(existing, fields) : em.create(UserSchema, fields as never);
  await em.flush();
  return user;
}
