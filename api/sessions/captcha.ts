/**
 * Self-hosted proof-of-work checks (ALTCHA, protocol v2): challenges signed with a key derived from the server
 * secret, expiring after 10 minutes; a solution is verified once and its challenge remembered until it expires, so
 * the same solution is never accepted twice.
 *
 * Two kinds: registration's (SHA-256 with a 4-hex-digit prefix, about 65,000 hashes), and a sign-in's, whose work is
 * the level the sign-in needs (domain/abuse-limits.ts SIGN_IN_CHECK): PBKDF2/SHA-256 tries up to a counter the server
 * drew, so its work is known in advance rather than left to luck, and the level it was made for is signed into it.
 */
import { createHmac, randomInt } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createChallenge, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey as deriveShaKey } from 'altcha-lib/algorithms/sha';
import { deriveKey as derivePbkdf2Key } from 'altcha-lib/algorithms/pbkdf2';
import { SIGN_IN_CHECK, signInCheckTries } from '../../domain/abuse-limits';
import { UsedChallengeSchema } from '../../db/entities';
import { kysely } from '../../db/kysely';

const CAPTCHA_TTL_MS = 10 * 60_000;
/** Registration: SHA-256 with a 4-hex-digit prefix, about 65,000 hashes, a fraction of a second in a browser. */
const REGISTRATION_ALGORITHM = 'SHA-256';
const KEY_PREFIX_LENGTH = 4;
const SIGN_IN_ALGORITHM = 'PBKDF2/SHA-256';

const captchaKey = (serverSecret: string) => createHmac('sha256', serverSecret).update('altcha').digest('base64url');
const expiresAt = () => new Date(Date.now() + CAPTCHA_TTL_MS);

export async function newCaptchaChallenge(serverSecret: string): Promise<Challenge> {
  const prefix = Array.from({ length: KEY_PREFIX_LENGTH }, () => '0').join('');
  return createChallenge({
    algorithm: REGISTRATION_ALGORITHM, cost: 1, keyPrefix: prefix, deriveKey: deriveShaKey,
    hmacSignatureSecret: captchaKey(serverSecret), expiresAt: expiresAt(),
  });
}

/** A sign-in's check of `level`: the solver tries counters from 0 up to one drawn in the upper half of the level's tries. */
export async function newSignInChallenge(serverSecret: string, level: number): Promise<Challenge> {
  const tries = signInCheckTries(level);
  return createChallenge({
    algorithm: SIGN_IN_ALGORITHM, cost: SIGN_IN_CHECK.iterationsPerTry, counter: randomInt(Math.floor(tries / 2), tries),
    deriveKey: derivePbkdf2Key, data: { purpose: 'signIn', level },
    hmacSignatureSecret: captchaKey(serverSecret), expiresAt: expiresAt(),
  });
}

function decode(payload: string): Payload | null {
  try {
    const value = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as Payload;
    return value?.challenge?.parameters && value?.solution ? value : null;
  } catch {
    return null;
  }
}

/** The level a sign-in check was made for (signed into it); 0 for any other challenge. */
const signInLevelOf = (payload: Payload): number => {
  const data = payload.challenge.parameters.data as { purpose?: unknown; level?: unknown } | undefined;
  return data?.purpose === 'signIn' && typeof data.level === 'number' ? data.level : 0;
};

/**
 * True once per solved challenge; false for a missing, wrong, expired or already redeemed solution, and for one
 * whose work is below `minSignInLevel` (a sign-in needs a sign-in check of at least the level it needs now: one
 * solved while the level was lower, or registration's, does not do).
 */
export async function redeemCaptcha(em: EntityManager, serverSecret: string, payload: string | undefined, minSignInLevel = 0): Promise<boolean> {
  if (!payload) return false;
  const decoded = decode(payload);
  if (!decoded?.challenge.signature) return false;
  const algorithm = decoded.challenge.parameters.algorithm;
  const deriveKey = algorithm === SIGN_IN_ALGORITHM ? derivePbkdf2Key : algorithm === REGISTRATION_ALGORITHM ? deriveShaKey : null;
  if (!deriveKey) return false;
  const result = await verifySolution({
    challenge: decoded.challenge, solution: decoded.solution, deriveKey, hmacSignatureSecret: captchaKey(serverSecret),
  }).catch(() => null);
  if (!result?.verified) return false;
  // After the signature held: the level inside is the one the server signed.
  if (minSignInLevel > 0 && signInLevelOf(decoded) < minSignInLevel) return false;
  await em.nativeDelete(UsedChallengeSchema, { expiresAt: { $lt: new Date() } });
  const expires = new Date((decoded.challenge.parameters.expiresAt ?? Date.now() / 1000 + CAPTCHA_TTL_MS / 1000) * 1000);
  const inserted = await kysely(em).insertInto('used_challenges')
    .values({ signature: decoded.challenge.signature, expires_at: expires })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}
