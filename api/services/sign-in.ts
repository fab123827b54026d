/**
 * Sign-in with email and password (spec 2 §7.2, strategy local). Same work whether the email exists or not, so the
 * timing does not reveal registered addresses; a hash older or weaker than argon2id at today's parameters is
 * replaced by a fresh one after a successful verify; lastLogin is recorded.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSchema, type User } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../auth/password-hash';
import { ApiError, notAuthenticated } from '../errors';

/**
 * Per-account throttle, whatever the caller's address: at most ACCOUNT_FAILURES failed sign-ins per window; further
 * attempts on that account hear 429 until the window ends. Nothing is locked: the window slides away on its own, and
 * the per-address limit (route config) bounds a single client across accounts.
 */
export const ACCOUNT_FAILURES = 20;
export const ACCOUNT_WINDOW_MS = 5 * 60_000;
const failures = new Map<string, { count: number; since: number }>();

function throttled(email: string, now: number): boolean {
  const entry = failures.get(email);
  if (!entry) return false;
  if (now - entry.since > ACCOUNT_WINDOW_MS) {
    failures.delete(email);
    return false;
  }
  return entry.count >= ACCOUNT_FAILURES;
}

function recordFailure(email: string, now: number): void {
  const entry = failures.get(email);
  if (!entry || now - entry.since > ACCOUNT_WINDOW_MS) failures.set(email, { count: 1, since: now });
  else entry.count += 1;
  if (failures.size > 100_000) failures.clear(); // bound memory under a spray of addresses
}

/** For tests: forget every account's failures. */
export const resetSignInThrottle = () => failures.clear();

/**
 * The account a password sign-in is for: the one with this address that has a password. Single sign-on may have
 * created an internal user apart from an (unconfirmed) external account with the same address; the external one holds
 * the password. Development accounts are internal users with a password.
 */
async function accountWithPassword(em: EntityManager, email: string): Promise<User | null> {
  const users = await em.find(UserSchema, { email, passwordHash: { $ne: null } }, { populate: ['passwordHash'], orderBy: { isExternal: 'desc' } });
  return users[0] ?? null;
}

export async function signInWithPassword(em: EntityManager, rawEmail: string | undefined, password: string | undefined): Promise<User> {
  const email = rawEmail?.trim().toLowerCase() ?? '';
  if (!email || !password) throw notAuthenticated(MESSAGES.loginFailed);
  const now = Date.now();
  if (throttled(email, now)) {
    throw new ApiError(429, 'Too many sign-in attempts for this account. Please wait a few minutes and try again.');
  }
  const user = await accountWithPassword(em, email);
  const stored = user?.passwordHash ?? await dummyPasswordHash();
  const ok = await verifyPassword(password, stored);
  if (!user || !ok) {
    recordFailure(email, now);
    if (!user && await em.count(UserSchema, { email, isExternal: false, passwordHash: null, deletedAt: null })) {
      // A single-sign-on user: no password here to guess; point at the right button (issue #16).
      throw notAuthenticated(MESSAGES.useSingleSignOn, { reason: 'useSingleSignOn' });
    }
    throw notAuthenticated(MESSAGES.loginFailed);
  }
  failures.delete(email);
  if (user.deletedAt) throw notAuthenticated(MESSAGES.inactiveUser, { reason: 'inactiveUser' });
  if (needsRehash(stored)) user.passwordHash = await hashPassword(password);
  user.lastLogin = new Date();
  await em.flush();
  return user;
}
