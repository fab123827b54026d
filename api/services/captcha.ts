/**
 * Self-hosted proof-of-work captcha (ALTCHA, protocol v2): challenges signed with a key derived from the server
 * secret, expiring after 10 minutes; a solution is verified once and its challenge remembered until it expires, so
 * the same solution is never accepted twice.
 */
import { createHmac } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createChallenge, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { UsedChallengeSchema } from '../../db/entities';
import { kysely } from '../../db/kysely';

const CAPTCHA_TTL_MS = 10 * 60_000;
/** SHA-256 with a 4-hex-digit prefix: about 65,000 hashes, a fraction of a second in a browser. */
const ALGORITHM = 'SHA-256';
const KEY_PREFIX_LENGTH = 4;

const captchaKey = (serverSecret: string) => createHmac('sha256', serverSecret).update('altcha').digest('base64url');

export async function newCaptchaChallenge(serverSecret: string): Promise<Challenge> {
  const prefix = Array.from({ length: KEY_PREFIX_LENGTH }, () => '0').join('');
  return createChallenge({
    algorithm: ALGORITHM, cost: 1, keyPrefix: prefix, deriveKey,
    hmacSignatureSecret: captchaKey(serverSecret), expiresAt: new Date(Date.now() + CAPTCHA_TTL_MS),
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

/** True once per solved challenge; false for a missing, wrong, expired or already redeemed solution. */
export async function redeemCaptcha(em: EntityManager, serverSecret: string, payload: string | undefined): Promise<boolean> {
  if (!payload) return false;
  const decoded = decode(payload);
  if (!decoded?.challenge.signature) return false;
  const result = await verifySolution({
    challenge: decoded.challenge, solution: decoded.solution, deriveKey, hmacSignatureSecret: captchaKey(serverSecret),
  }).catch(() => null);
  if (!result?.verified) return false;
  await em.nativeDelete(UsedChallengeSchema, { expiresAt: { $lt: new Date() } });
  const expiresAt = new Date((decoded.challenge.parameters.expiresAt ?? Date.now() / 1000 + CAPTCHA_TTL_MS / 1000) * 1000);
  const inserted = await kysely(em).insertInto('used_challenges')
    .values({ signature: decoded.challenge.signature, expires_at: expiresAt })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}
