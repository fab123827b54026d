/**
 * Helpers shared by the e2e files of branch e2e2 (session-and-pages, pickers, request-commands, working-a-request).
 */
import type { Session } from './api-helpers';
import type { Harness } from './portal-harness';
import { UserSchema } from '../../db/entities';
import { signSessionToken } from '../../api/plugins/auth';

/**
 * An API session for `user` (by email) without the sign-in call: a token signed by the portal at the user's session
 * version, as `portal.openAs` makes for the browser. No password hashing and no sign-in rate limit.
 */
export async function sessionFor(h: Harness, user: { email: string }): Promise<Session> {
  const row = await h.orm.em.fork().findOneOrFail(UserSchema, { email: user.email, deletedAt: null }, { orderBy: { id: 'asc' } });
  return { token: signSessionToken(h.app, { id: row.id, sessionVersion: row.sessionVersion }), user: { id: row.id, email: row.email } };
}
