import type { SessionUser } from '../../contract/session-user.schema';
import { accountDisplayName } from '../../domain';
import type { Actor } from '../../workflows/request.messages';

/** The name audit rows, messages and emails show for a signed-in user: first and last name, else the address. */
export const displayNameOf = (user: SessionUser): string => accountDisplayName(user);

/** A signed-in user as a workflow's actor: the audit row keeps the account beside the name (the name outlives it). */
export const actorOf = (user: SessionUser): Actor => ({ name: displayNameOf(user), email: user.email, userId: user.id });
