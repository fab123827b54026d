import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import type { User } from '../../db/entities';
import { kysely } from '../../db/kysely';
import { holdsAdministratorRights, isPasswordExpired, MESSAGES, type AdministratorPolicy } from '../../domain';
import { notAuthenticated } from '../errors';
import type { SessionUser } from '../../contract/session-user.schema';

/** What a verified token says: whose it is and at which session version it was signed. */
export interface TokenClaims { id: number; sessionVersion: number }

/** The fields of a user the session is made of (an entity, or a row of {@link sessionFromToken}'s statement). */
type SessionFields = Pick<User, 'id' | 'email' | 'firstName' | 'lastName' | 'affiliation' | 'isExternal' | 'mustChangePassword'> & {
  middleInitial?: string | null; phone?: string | null; company?: string | null; personType?: string | null;
  pswdResetAt?: Date | null; lastLogin?: Date | null; emailConfirmedAt?: Date | null; pendingEmail?: string | null;
};

function sessionUserOf(user: SessionFields, isAdmin: boolean): SessionUser {
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
    emailConfirmed: !!user.emailConfirmedAt,
    pendingEmail: user.pendingEmail ?? null,
    mustChangePassword: user.mustChangePassword,
    isPswdExpired: isPasswordExpired({ isExternal: user.isExternal, pswdResetAt: user.pswdResetAt?.toISOString() ?? null }, new Date()),
    lastLogin: user.lastLogin?.toISOString() ?? null,
  };
}

/**
 * The signed-in user as the API and UI see it. Admin: domain/administrator-rights.ts decides from the admin list
 * (spec 2 §7.11), the proven address, the kind of account and whether it has a password.
 */
export async function toSessionUser(em: EntityManager, user: User, policy: AdministratorPolicy): Promise<SessionUser> {
  const { rows: [facts] } = await sql<{ on_admin_list: boolean; has_password: boolean }>`
    select exists (select 1 from "admins" a where a."email" = lower(u."email")) as "on_admin_list", u."password_hash" is not null as "has_password"
    from "users" u where u."id" = ${user.id}`.execute(kysely(em));
  return sessionUserOf(user, holdsAdministratorRights({
    onAdminList: !!facts?.on_admin_list, emailConfirmed: !!user.emailConfirmedAt, isExternal: user.isExternal, hasPassword: !!facts?.has_password,
  }, policy));
}

/** The row of {@link sessionFromToken}'s statement (timestamps as the driver answers them: text). */
interface SessionRow {
  id: number; email: string; first_name: string; last_name: string; middle_initial: string | null; phone: string | null;
  company: string | null; affiliation: string; person_type: string | null; is_external: boolean; must_change_password: boolean;
  pswd_reset_at: string | null; last_login: string | null; deleted_at: string | null; session_version: number;
  on_admin_list: boolean; has_password: boolean;
  email_confirmed_at: string | null; pending_email: string | null;
}

/**
 * The user a verified token stands for. Refused (401): an unknown user or a token from before the last logout or
 * password change (`authFail`), a deactivated user (`inactiveUser`, spec 1 §2).
 *
 * Every authenticated call asks this, so it is one statement (the user and whether the admin list holds their
 * email), read fresh each time: a logout, a password change, a deactivation or an admin-list change takes effect
 * on the very next call, with no cache to invalidate.
 */
export async function sessionFromToken(em: EntityManager, claims: TokenClaims, policy: AdministratorPolicy): Promise<SessionUser> {
  const row = await sessionRowOf(em, claims.id);
  if (!row || row.session_version !== claims.sessionVersion) throw notAuthenticated(MESSAGES.sessionExpired, { reason: 'authFail' });
  if (row.deleted_at) throw notAuthenticated(MESSAGES.inactiveUser, { reason: 'inactiveUser' });
  return sessionOfRow(em, row, policy);
}

/**
 * The user an API key acts for (api/sessions/api-key-session.ts): the same statement, without a session version (a
 * key is not a session: a logout or a password change leaves it in force; revoking it ends it). Null for a user
 * that is gone; a deactivated one is refused as their tokens are.
 */
export async function sessionOfKeyOwner(em: EntityManager, userId: number, policy: AdministratorPolicy): Promise<SessionUser | null> {
  const row = await sessionRowOf(em, userId);
  if (!row) return null;
  if (row.deleted_at) throw notAuthenticated(MESSAGES.inactiveUser, { reason: 'inactiveUser' });
  return sessionOfRow(em, row, policy);
}

async function sessionRowOf(em: EntityManager, id: number): Promise<SessionRow | undefined> {
  const { rows: [row] } = await sql<SessionRow>`
    select u."id", u."email", u."first_name", u."last_name", u."middle_initial", u."phone", u."company", u."affiliation", u."person_type",
      u."is_external", u."must_change_password", u."pswd_reset_at", u."last_login", u."deleted_at", u."session_version",
      u."email_confirmed_at", u."pending_email",
      exists (select 1 from "admins" a where a."email" = lower(u."email")) as "on_admin_list", u."password_hash" is not null as "has_password"
    from "users" u where u."id" = ${id}`.execute(kysely(em));
  return row;
}

function sessionOfRow(em: EntityManager, row: SessionRow, policy: AdministratorPolicy): SessionUser {
  const date = (value: string | null) => (value ? new Date(em.getPlatform().parseDate(value) as Date) : null);
  return sessionUserOf({
    id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name, middleInitial: row.middle_initial,
    phone: row.phone, company: row.company, affiliation: row.affiliation, personType: row.person_type, isExternal: row.is_external,
    mustChangePassword: row.must_change_password, pswdResetAt: date(row.pswd_reset_at), lastLogin: date(row.last_login),
    emailConfirmedAt: date(row.email_confirmed_at), pendingEmail: row.pending_email,
  }, holdsAdministratorRights({
    onAdminList: row.on_admin_list, emailConfirmed: !!row.email_confirmed_at, isExternal: row.is_external, hasPassword: row.has_password,
  }, policy));
}
