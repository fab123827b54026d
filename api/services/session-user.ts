import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminSchema, UserSchema, type User } from '../../db/entities';
import { isPasswordExpired, MESSAGES } from '../../domain';
import { notAuthenticated } from '../errors';
import type { SessionUser } from '../schemas/session-user.schema';

/** What a verified token says: whose it is and at which session version it was signed. */
export interface TokenClaims { id: number; sessionVersion: number }

/** The signed-in user as the API and UI see it; admin = email in the admin list (spec 2 §7.11). */
export async function toSessionUser(em: EntityManager, user: User): Promise<SessionUser> {
  const isAdmin = (await em.count(AdminSchema, { email: user.email.toLowerCase() })) > 0;
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    middleInitial: user.middleInitial ?? null,
    phone: user.phone ?? null,
    company: user.company ?? null,
    affiliation: user.affiliation,
    personType: user.personType ?? null,
    isAdmin,
    isExternal: user.isExternal,
    mustChangePassword: user.mustChangePassword,
    isPswdExpired: isPasswordExpired({ isExternal: user.isExternal, pswdResetAt: user.pswdResetAt?.toISOString() ?? null }, new Date()),
    lastLogin: user.lastLogin?.toISOString() ?? null,
  };
}

/**
 * The user a verified token stands for. Refused (401): an unknown user or a token from before the last logout or
 * password change (`authFail`), a deactivated user (`inactiveUser`, spec 1 §2).
 */
export async function sessionFromToken(em: EntityManager, claims: TokenClaims): Promise<SessionUser> {
  const user = await em.findOne(UserSchema, { id: claims.id });
  if (!user || user.sessionVersion !== claims.sessionVersion) throw notAuthenticated(MESSAGES.sessionExpired, { reason: 'authFail' });
  if (user.deletedAt) throw notAuthenticated(MESSAGES.inactiveUser, { reason: 'inactiveUser' });
  return toSessionUser(em, user);
}
