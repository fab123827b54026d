/**
 * Account link secrets: password-reset links and email-confirmation links, each purpose with its own key.
 * Password-reset link secrets. The secret of token `<id>` is HMAC-SHA256(server key, id): the API and the email
 * activity derive the same one, so it never travels through Temporal's history, and the database stores only its
 * SHA-256. The link carries `<id>.<secret>`.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const RESET_TOKEN_TTL_MS = 60 * 60_000;

const secretOf = (serverKey: string, id: string, purpose = 'password-reset') =>
  createHmac('sha256', `${purpose}:${serverKey}`).update(id).digest('base64url');

/** An email-confirmation link is valid this long (24 hours). */
export const CONFIRMATION_TOKEN_TTL_MS = 24 * 60 * 60_000;
export const confirmationLinkToken = (serverKey: string, id: string) => `${id}.${secretOf(serverKey, id, 'email-confirmation')}`;
export const confirmationSecretHash = (serverKey: string, id: string) => hashSecret(secretOf(serverKey, id, 'email-confirmation'));

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const resetLinkToken = (serverKey: string, id: string) => `${id}.${secretOf(serverKey, id)}`;
export const resetSecretHash = (serverKey: string, id: string) => hashSecret(secretOf(serverKey, id));

/** Splits `<id>.<secret>`; null when it cannot be a token. */
export function parseResetToken(token: string): { id: string; secret: string } | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  return match ? { id: match[1], secret: match[2] } : null;
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
