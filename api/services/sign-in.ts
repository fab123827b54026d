/**
 * Sign-in with email and password (spec 2 §7.2, strategy local). Same work whether the email exists or not, so the
 * timing does not reveal registered addresses; a hash older or weaker than argon2id at today's parameters is
 * replaced by a fresh one after a successful verify; lastLogin is recorded.
 *
 * Failed attempts are counted in PostgreSQL (domain/abuse-limits.ts SIGN_IN_LIMITS), so every API process sees them:
 * per account and per client address for browsers the account does not know, per browser for those it does
 * (api/auth/known-device.ts). Nothing locks an account: every window passes on its own, and the owner's own browser
 * is never held back by someone else's failures. Each success, failure and refusal is written to the security log.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSchema, type User } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { QUOTA_MESSAGES, SIGN_IN_LIMITS, type WindowLimit } from '../../domain/abuse-limits';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../../db/password-hash';
import { ApiError, notAuthenticated } from '../errors';
import { clearHits, countHit, isOverLimit } from './rate-limits';
import { recordSecurityEvent } from './security-log';

/** Where an attempt comes from: the client's address and, when the browser signed in to this account before, its id. */
export interface SignInOrigin {
  ip: string;
  /** the id of a browser that signed in to this email before (known-device cookie), else null */
  knownDeviceId: string | null;
}

/** The failure counters an attempt meets, each with its limit and the message of its refusal. */
function countersOf(email: string, origin: SignInOrigin): Array<{ key: string; limit: WindowLimit; message: string }> {
  if (origin.knownDeviceId) return [{ key: `signin|device|${origin.knownDeviceId}`, limit: SIGN_IN_LIMITS.knownDevice, message: QUOTA_MESSAGES.signInAccount }];
  return [
    { key: `signin|account|${email}`, limit: SIGN_IN_LIMITS.account, message: QUOTA_MESSAGES.signInAccount },
    { key: `signin|address|${origin.ip}`, limit: SIGN_IN_LIMITS.address, message: QUOTA_MESSAGES.signInAddress },
  ];
}

/**
 * The account a password sign-in is for: the one with this address that has a password. Single sign-on may have
 * created an internal user apart from an (unconfirmed) external account with the same address; the external one holds
 * the password. Development accounts are internal users with a password.
 */
async function accountWithPassword(em: EntityManager, email: string): Promise<User | null> {
  const users = await em.find(UserSchema, { email, passwordHash: { $ne: null } }, { populate: ['passwordHash'], orderBy: { isExternal: 'desc' } });
  return users[0] ?? null;
}

/** Logs a refusal for too many attempts at most once a minute per address and email (a flood adds no lines). */
async function logThrottled(em: EntityManager, email: string, origin: SignInOrigin, counter: string): Promise<void> {
  const { hits } = await countHit(em, `signin|logged-throttle|${origin.ip}|${email}`, 60_000);
  if (hits === 1) await recordSecurityEvent(em, { kind: 'signInThrottled', email, ip: origin.ip, detail: { counter } });
}

export async function signInWithPassword(em: EntityManager, rawEmail: string | undefined, password: string | undefined, origin: SignInOrigin): Promise<User> {
  const email = rawEmail?.trim().toLowerCase() ?? '';
  if (!email || !password) throw notAuthenticated(MESSAGES.loginFailed);
  const counters = countersOf(email, origin);
  for (const counter of counters) {
    if (await isOverLimit(em, counter.key, counter.limit)) {
      await logThrottled(em, email, origin, counter.key.split('|')[1]);
      throw new ApiError(429, counter.message);
    }
  }
  const user = await accountWithPassword(em, email);
  const stored = user?.passwordHash ?? await dummyPasswordHash();
  const ok = await verifyPassword(password, stored);
  if (!user || !ok) {
    for (const counter of counters) await countHit(em, counter.key, counter.limit.windowMs);
    await recordSecurityEvent(em, { kind: 'signInFailed', userId: user?.id ?? null, email, ip: origin.ip, detail: { knownDevice: Boolean(origin.knownDeviceId) } });
    if (!user && await em.count(UserSchema, { email, isExternal: false, passwordHash: null, deletedAt: null })) {
      // A single-sign-on user: no password here to guess; point at the right button (issue #16).
      throw notAuthenticated(MESSAGES.useSingleSignOn, { reason: 'useSingleSignOn' });
    }
    throw notAuthenticated(MESSAGES.loginFailed);
  }
  // A success from a strange browser ends the account's failure window; one from the owner's known browser does not
  // (it was never held by that window), or each of the owner's sign-ins would hand an attacker a fresh 20 guesses.
  if (!origin.knownDeviceId) await clearHits(em, `signin|account|${email}`);
  if (user.deletedAt) {
    await recordSecurityEvent(em, { kind: 'signInFailed', userId: user.id, email, ip: origin.ip, detail: { reason: 'inactiveUser' } });
    throw notAuthenticated(MESSAGES.inactiveUser, { reason: 'inactiveUser' });
  }
  if (needsRehash(stored)) user.passwordHash = await hashPassword(password);
  user.lastLogin = new Date();
  await em.flush();
  await recordSecurityEvent(em, { kind: 'signInSucceeded', userId: user.id, email, ip: origin.ip, detail: { strategy: 'local' } });
  return user;
}
