/**
 * Password hashing with argon2id at OWASP's parameters (m=19 MiB, t=2, p=1). The parameters travel in the stored
 * PHC string, so they can be raised later: `needsRehash` says when a stored hash is older or weaker than today's,
 * and sign-in then stores a fresh hash (hashes written before argon2, with scrypt, are verified and upgraded).
 * In db/, beside the link secrets (password-reset-secret.ts): the API's sign-in and the seed's accounts both hash with
 * it, and db/ is below both (docs/ARCHITECTURE.md "Folders").
 */
import { scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import argon2 from 'argon2';
import { PASSWORD_HASHING } from '../../domain/abuse-limits';

const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hashing refused because this process already runs and queues as many as it takes (the API answers 503). */
export class PasswordHashingBusy extends Error {
  readonly retryAfterSeconds = PASSWORD_HASHING.retryAfterSeconds;
  constructor() { super('password hashing queue full'); }
}

/**
 * This process's hashing: a semaphore with a bounded queue. Per process on purpose: it bounds this process's CPU and
 * memory (19 MiB a hash), which no other process shares; what processes share (the sign-in windows) is in PostgreSQL.
 * The figures are read by the API's metrics (api/plugins/metrics.ts).
 */
export const passwordHashing = {
  limits: { concurrency: PASSWORD_HASHING.concurrency as number, queue: PASSWORD_HASHING.queue as number },
  running: 0,
  waiting: [] as Array<() => void>,
  /** password verifications that ran (argon2 or the legacy scrypt), since the process started */
  verifications: 0,
  /** hashings or verifications refused for a full queue */
  refused: 0,
};

async function withHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  const h = passwordHashing;
  if (h.running >= h.limits.concurrency) {
    if (h.waiting.length >= h.limits.queue) {
      h.refused += 1;
      throw new PasswordHashingBusy();
    }
    await new Promise<void>((resolve) => h.waiting.push(resolve)); // the slot is handed over, `running` unchanged
  } else {
    h.running += 1;
  }
  try {
    return await work();
  } finally {
    const next = h.waiting.shift();
    if (next) next();
    else h.running -= 1;
  }
}

export async function hashPassword(password: string): Promise<string> {
  return withHashingSlot(() => argon2.hash(password, ARGON2_OPTIONS));
}

/** A valid hash of no known password: sign-in verifies against it when the email is unknown (same timing). */
let dummyHash: Promise<string> | null = null;
export const dummyPasswordHash = () => (dummyHash ??= argon2.hash(`dummy-${Math.random()}`, ARGON2_OPTIONS));

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  if (stored.startsWith('$argon2')) {
    return withHashingSlot(async () => {
      passwordHashing.verifications += 1;
      try {
        return await argon2.verify(stored, password);
      } catch {
        return false;
      }
    });
  }
  if (stored.startsWith('scrypt$')) {
    return withHashingSlot(() => {
      passwordHashing.verifications += 1;
      return verifyLegacyScrypt(password, stored);
    });
  }
  return false;
}

/** True when the stored hash is not argon2id at today's parameters: sign-in replaces it. */
export function needsRehash(stored: string): boolean {
  if (!stored.startsWith('$argon2id$')) return true;
  try {
    return argon2.needsRehash(stored, ARGON2_OPTIONS);
  } catch {
    return true;
  }
}

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

/** Hashes of the first release: `scrypt$N$r$p$salt$key`. Verified once more, then upgraded at sign-in. */
async function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, rr, pp, salt, key] = stored.split('$');
  if (!key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n), r: Number(rr), p: Number(pp), maxmem: 64 * 1024 * 1024,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
