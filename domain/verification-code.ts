/**
 * The verification code printed on every issued certificate and claim-history letter, which anyone may type or scan
 * to check the paper against the portal.
 *
 * RULES:
 * - Unguessable: 13 symbols of 5 random bits each = 65 bits, drawn from random bytes the caller supplies (this file
 *   stays pure; the server passes `crypto.randomBytes`). Nothing is derived from the request or its number.
 * - Easy to type: Crockford's base-32 alphabet (digits and capitals without I, L, O and U, so no two symbols look
 *   alike), printed in groups `XXXX-XXXX-XXXXX`.
 * - Forgiving input: case, spaces, dashes and the look-alikes a person may type instead (O→0, I and L→1) do not
 *   matter; the code is stored and compared in its normalized form (13 symbols, no dashes).
 */
export const VERIFICATION_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** symbols in a code; 13 × 5 bits = 65 bits of randomness */
export const VERIFICATION_CODE_LENGTH = 13;
/** how the symbols are grouped when printed */
const VERIFICATION_CODE_GROUPS = [4, 4, 5] as const;
/** random bytes one code needs (65 bits rounded up to whole bytes) */
export const VERIFICATION_CODE_RANDOM_BYTES = Math.ceil((VERIFICATION_CODE_LENGTH * 5) / 8);

const LOOK_ALIKES: Record<string, string> = { O: '0', I: '1', L: '1' };
const WELL_FORMED = new RegExp(`^[${VERIFICATION_CODE_ALPHABET}]{${VERIFICATION_CODE_LENGTH}}$`);

/** A new code (normalized form) from at least `VERIFICATION_CODE_RANDOM_BYTES` random bytes, 5 bits per symbol. */
export function newVerificationCode(randomBytes: Uint8Array): string {
  if (randomBytes.length < VERIFICATION_CODE_RANDOM_BYTES) {
    throw new RangeError(`A verification code needs ${VERIFICATION_CODE_RANDOM_BYTES} random bytes`);
  }
  let code = '';
  for (let i = 0; i < VERIFICATION_CODE_LENGTH; i += 1) {
    const bit = i * 5;
    const byte = bit >> 3;
    // two bytes big-endian hold the 5 bits starting at `bit`
    const pair = (randomBytes[byte] << 8) | (randomBytes[byte + 1] ?? 0);
    code += VERIFICATION_CODE_ALPHABET[(pair >> (11 - (bit & 7))) & 31];
  }
  return code;
}

/**
 * What a person typed or a QR code carried, in the stored form (upper case, look-alikes mapped, no spaces or
 * dashes). The result may still be malformed: check it with `isWellFormedVerificationCode`.
 */
export function normalizeVerificationCode(input: string): string {
  return input
    .toUpperCase()
    .replace(/[\s\-‐‑‒–—_.]/g, '')
    .replace(/[OIL]/g, (c) => LOOK_ALIKES[c]!);
}

/** Whether a code (already normalized) has the right length and only symbols of the alphabet. */
export function isWellFormedVerificationCode(code: string): boolean {
  return WELL_FORMED.test(code);
}

/** The printed form `XXXX-XXXX-XXXXX` of a stored (or typed) code. */
export function formatVerificationCode(code: string): string {
  const plain = normalizeVerificationCode(code);
  const groups: string[] = [];
  let at = 0;
  for (const size of VERIFICATION_CODE_GROUPS) {
    groups.push(plain.slice(at, at + size));
    at += size;
  }
  return groups.filter(Boolean).join('-');
}

/** The public page that checks a code: `<publicUrl>/verify/<printed code>`. */
export function verificationUrl(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/verify/${formatVerificationCode(code)}`;
}
