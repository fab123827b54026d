/**
 * The signed-in user's current password, asked before their password or their email changes: a session left open on
 * a shared computer, or a stolen token, must be enough neither to move the account nor to learn its password by
 * guessing. Wrong answers are counted per user in one window for both questions (CURRENT_PASSWORD_FAILURES), and a
 * place in it is taken before the password is checked: a burst of guesses sent at once gets no more checks than the
 * window has places (a count read before the check would let all of them through while the first were hashing). A
 * right answer, and an attempt the hashing queue refused, give their place back.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSchema } from '../../db/entities';
import { verifyPassword } from './password-hash';
import { CURRENT_PASSWORD_FAILURES, CURRENT_PASSWORD_TOO_MANY } from '../../domain/abuse-limits';
import { MESSAGES } from '../../domain';
import { invalid, overQuota } from '../refusals';
import { readHits, releaseHit, reserveHit } from '../limits/rate-limits';

const failuresKey = (userId: number) => `current-password|${userId}`;

/** Refuses (400 with the spec's message, or 429 once the window is full) unless `password` is the user's own. */
export async function assertCurrentPassword(em: EntityManager, userId: number, password: string): Promise<void> {
  const key = failuresKey(userId);
  if (!(await reserveHit(em, key, CURRENT_PASSWORD_FAILURES))) {
    const { resetInMs } = await readHits(em, key);
    throw overQuota(CURRENT_PASSWORD_TOO_MANY, { reason: 'tooManyAttempts', retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)) });
  }
  let matches: boolean;
  try {
    const user = await em.findOneOrFail(UserSchema, { id: userId }, { populate: ['passwordHash'] });
    matches = await verifyPassword(password, user.passwordHash);
  } catch (error) {
    await releaseHit(em, key);
    throw error;
  }
  if (!matches) throw invalid(MESSAGES.currentPasswordFailed, { currentPassword: MESSAGES.currentPasswordFailed });
  await releaseHit(em, key);
}
