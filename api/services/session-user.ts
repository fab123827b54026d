import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminSchema, UserSchema, type User } from '../../db/entities';
import { isPasswordExpired } from '../../domain';
import type { SessionUser } from '../schemas/session-user.schema';

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

export async function loadSessionUser(em: EntityManager, id: number): Promise<SessionUser | null> {
  const user = await em.findOne(UserSchema, { id, deletedAt: null });
  return user ? toSessionUser(em, user) : null;
}
