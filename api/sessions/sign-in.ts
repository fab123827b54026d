/**
 * Sign-in with email and password (spec 2 §7.2, strategy local). Same work whether the email exists or not, so the
 * timing does not reveal registered addresses; a hash older or weaker than argon2id at today's parameters is
 * replaced by a fresh one after a successful verify; lastLogin is recorded.
 *
 * Attempts are counted in PostgreSQL (domain/abuse-limits.ts SIGN_IN_LIMITS), so every API process sees them: per
 * account and per client address for browsers the account does not know, per browser for those it does
 * (api/auth/known-device.ts). Each attempt takes its place in a window before its password is checked and gives it
 * back on success, so a burst reaches argon2 at most as often as the window has places. Nothing locks an account:
 * every window passes on its own, the owner's own browser is never held back by someone else's failures, and a full
 * address window (or an account that failed a few times) asks for a solved proof-of-work check instead of refusing,
 * whose work grows with the failures (domain/abuse-limits.ts SIGN_IN_CHECK). Each success, failure and refusal is
 * written to the security log.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSchema, type User } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { QUOTA_MESSAGES, SIGN_IN_CHECK, SIGN_IN_LIMITS, SIGN_IN_MESSAGES, signInCheckLevel, type WindowLimit } from '../../domain/abuse-limits';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../../services/accounts/password-hash';
import { ApiError, notAuthenticated } from '../errors';
import { redeemCaptcha } from './captcha';
import { clearHits, countHit, readHits, releaseHit, reserveHit } from '../../services/limits/rate-limits';
import { recordSecurityEvent } from '../../services/desk/security-log';

/** Where an attempt comes from: the client's address and, when the browser signed in to this account before, its id. */
interface SignInOrigin {
  ip: string;
  /** the id of a browser that signed in to this email before (known-device cookie), else null */
  knownDeviceId: string | null;
}

/** The proof-of-work check an attempt may carry: asked for once its address's window is full. */
interface SignInCheck {
  /** the solved ALTCHA payload the browser sent, if any */
  solution?: string;
  /** the server secret the challenges are signed with */
  serverSecret: string;
}

interface Window { key: string; limit: WindowLimit }

const accountWindow = (email: string): Window => ({ key: `signin|account|${email}`, limit: SIGN_IN_LIMITS.account });
const addressWindow = (ip: string): Window => ({ key: `signin|address|${ip}`, limit: SIGN_IN_LIMITS.address });
const deviceWindow = (id: string): Window => ({ key: `signin|device|${id}`, limit: SIGN_IN_LIMITS.knownDevice });
/** Failures from an address past its full window (SIGN_IN_CHECK.addressOverWindow): what raises its check's level. */
const addressOverKey = (ip: string) => `signin|address-over|${ip}`;

/**
 * The account a password sign-in is for: the one with this address that has a password. Single sign-on may have
 * created an internal user apart from an (unconfirmed) external account with the same address; the external one holds
 * the password. Development accounts are internal users with a password.
 */
async function accountWithPassword(em: EntityManager, email: string): Promise<User | null> {
  const users = await em.find(UserSchema, { email, passwordHash: { $ne: null } }, { populate: ['passwordHash'], orderBy: { isExternal: 'desc' } });
  return users[0] ?? null;
}

/** Logs a refusal for too many attempts (or a check asked for) at most once a minute per address and email (a flood adds no lines). */
async function logThrottled(em: EntityManager, email: string, origin: SignInOrigin, counter: 'account' | 'address' | 'device'): Promise<void> {
  // A full address window is logged once a minute per address: a spray of new emails would otherwise add a line each.
  const { hits } = await countHit(em, `signin|logged-throttle|${origin.ip}|${counter === 'address' ? '*' : email}`, 60_000);
  if (hits === 1) await recordSecurityEvent(em, { kind: 'signInThrottled', email, ip: origin.ip, detail: { counter } });
}

/** The check level a sign-in of `email` from `ip` needs now (domain/abuse-limits.ts signInCheckLevel), counting nothing. */
export async function signInCheckLevelFor(em: EntityManager, email: string, ip: string): Promise<number> {
  const [address, over, account] = await Promise.all([
    readHits(em, addressWindow(ip).key), readHits(em, addressOverKey(ip)), readHits(em, accountWindow(email.trim().toLowerCase()).key),
  ]);
  return signInCheckLevel({
    addressWindowFull: address.hits >= SIGN_IN_LIMITS.address.max, addressFailuresPastWindow: over.hits, accountFailures: account.hits,
  });
}

/**
 * Takes the attempt's places in its windows before any password is checked (domain/abuse-limits.ts SIGN_IN_LIMITS):
 * a known browser its own window; any other browser its account's window (full: 429) and its address's (full: a
 * solved check instead, never a refusal). A check is also needed once the account has failed a few times; its work
 * rises with the failures past the address window and on the account (SIGN_IN_CHECK). Answers the places taken, to
 * be given back if the password is right, and whether the attempt came past a full address window.
 */
async function reserveWindows(em: EntityManager, email: string, origin: SignInOrigin, check: SignInCheck): Promise<{ taken: Window[]; pastAddressWindow: boolean }> {
  if (origin.knownDeviceId) {
    const device = deviceWindow(origin.knownDeviceId);
    if (!(await reserveHit(em, device.key, device.limit))) {
      await logThrottled(em, email, origin, 'device');
      throw new ApiError(429, QUOTA_MESSAGES.signInAccount);
    }
    return { taken: [device], pastAddressWindow: false };
  }
  const account = accountWindow(email);
  // A full account window refuses before anything else is taken or checked: no check could help this attempt.
  const accountFailures = await readHits(em, account.key);
  if (accountFailures.hits >= account.limit.max) {
    await logThrottled(em, email, origin, 'account');
    throw new ApiError(429, QUOTA_MESSAGES.signInAccount);
  }
  const taken: Window[] = [];
  const address = addressWindow(origin.ip);
  const pastAddressWindow = !(await reserveHit(em, address.key, address.limit));
  if (!pastAddressWindow) taken.push(address);
  const over = pastAddressWindow ? await readHits(em, addressOverKey(origin.ip)) : { hits: 0 };
  const level = signInCheckLevel({ addressWindowFull: pastAddressWindow, addressFailuresPastWindow: over.hits, accountFailures: accountFailures.hits });
  // Checked before the account's window is touched, so a missing check costs the account nothing.
  if (level > 0 && !(await redeemCaptcha(em, check.serverSecret, check.solution, level))) {
    await releaseWindows(em, taken);
    await logThrottled(em, email, origin, pastAddressWindow ? 'address' : 'account');
    throw notAuthenticated(pastAddressWindow ? SIGN_IN_MESSAGES.checkRequired : SIGN_IN_MESSAGES.checkRequiredForAccount, { reason: 'checkRequired', level });
  }
  if (!(await reserveHit(em, account.key, account.limit))) {
    await releaseWindows(em, taken);
    await logThrottled(em, email, origin, 'account');
    throw new ApiError(429, QUOTA_MESSAGES.signInAccount);
  }
  return { taken: [...taken, account], pastAddressWindow };
}

const releaseWindows = async (em: EntityManager, windows: Window[]) => {
  for (const window of windows) await releaseHit(em, window.key);
};

export async function signInWithPassword(
  em: EntityManager, rawEmail: string | undefined, password: string | undefined, origin: SignInOrigin, check: SignInCheck,
): Promise<User> {
  const email = rawEmail?.trim().toLowerCase() ?? '';
  if (!email || !password) throw notAuthenticated(MESSAGES.loginFailed);
  const { taken: reserved, pastAddressWindow } = await reserveWindows(em, email, origin, check);
  let user: User | null;
  let stored: string;
  let ok: boolean;
  try {
    user = await accountWithPassword(em, email);
    stored = user?.passwordHash ?? await dummyPasswordHash();
    ok = await verifyPassword(password, stored);
  } catch (error) {
    // Nothing was checked (a full hashing queue, the database away): no failed guess, the places go back.
    await releaseWindows(em, reserved).catch(() => undefined);
    throw error;
  }
  if (!user || !ok) {
    // The places taken stay: they count this failure. Past the address window, the failure raises the check's level.
    if (pastAddressWindow) await countHit(em, addressOverKey(origin.ip), SIGN_IN_CHECK.addressOverWindow.windowMs);
    await recordSecurityEvent(em, { kind: 'signInFailed', userId: user?.id ?? null, email, ip: origin.ip, detail: { knownDevice: Boolean(origin.knownDeviceId) } });
    if (!user && await em.count(UserSchema, { email, isExternal: false, passwordHash: null, deletedAt: null })) {
      // A single-sign-on user: no password here to guess; point at the right button.
      throw notAuthenticated(MESSAGES.useSingleSignOn, { reason: 'useSingleSignOn' });
    }
    throw notAuthenticated(MESSAGES.loginFailed);
  }
  // The windows count failures: a right password gives its places back.
  await releaseWindows(em, reserved);
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
