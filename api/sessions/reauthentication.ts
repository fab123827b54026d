/**
 * Re-authentication with a stored token (spec 2 §7.2, strategy jwt): the page-change and page-load check of a session.
 * A token the portal signed is answered without any limit (domain/abuse-limits.ts FORGED_TOKENS_PER_ADDRESS says why);
 * a token it never signed takes a place in its address's window, and past it the answer is 429, not 401.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '../../domain';
import { FORGED_TOKENS_PER_ADDRESS, QUOTA_MESSAGES } from '../../domain/abuse-limits';
import { readHits, reserveHit } from '../../services/limits/rate-limits';
import { ApiError, notAuthenticated } from '../errors';

const forgedTokensKey = (ip: string) => `reauth|forged|${ip}`;

/** The answer to a refused token: 401 (the session is over), or 429 for a token not ours past its address's window. */
export async function refuseToken(em: EntityManager, ip: string, why: 'expired' | 'forged'): Promise<never> {
  if (why === 'forged' && !(await reserveHit(em, forgedTokensKey(ip), FORGED_TOKENS_PER_ADDRESS))) {
    const { resetInMs } = await readHits(em, forgedTokensKey(ip));
    throw new ApiError(429, QUOTA_MESSAGES.tooManyCalls, { retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)) });
  }
  throw notAuthenticated(MESSAGES.sessionExpired, { reason: 'authFail' });
}
