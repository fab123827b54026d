/**
 * The signed token of a reply address (domain/reply-address.ts has the address around it).
 *
 * `<request number>-<base32 of 15 bytes>`: the day it was issued (2 bytes, days since 2020-01-01 UTC), a fingerprint
 * of the recipient's address (4 bytes, keyed, so the address cannot be read back from the token) and an HMAC-SHA256
 * over the request number and those 6 bytes, truncated to 9 bytes (72 bits: guessing one takes ~2^71 tries, against
 * a listener that answers a bad token with a refusal). The whole token is lowercase, 26 to 35 characters.
 *
 * Unforgeable without the key; stateless (nothing is stored per email); revoked all at once by changing the key
 * (REPLY_TOKEN_SECRET, or JWT_SECRET it is derived from when unset): every reply address sent before then is refused.
 * Both the sending worker and the receiving side (mail-in/) import this file; its key is a setting (config/app-config.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DEFAULT_REPLY_TOKEN_MAX_AGE_DAYS } from '../config/app-config';
import { base32Decode, base32Encode, parseReplyAddress, REPLY_TOKEN_PATTERN } from '../domain/reply-address';

const DAY_MS = 86_400_000;
const EPOCH_MS = Date.UTC(2020, 0, 1);
const FINGERPRINT_BYTES = 4;
const MAC_BYTES = 9;

/** What a genuine token says. `expired`: older than the allowed age (the sender is told to use a newer email). */
interface ReplyTokenClaims {
  requestNumber: number;
  /** the keyed fingerprint of the address the token was issued to: compare with `isIssuedTo` */
  recipientFingerprint: string;
  issuedOn: Date;
  expired: boolean;
}


const normalAddress = (address: string) => address.trim().toLowerCase();

function fingerprintBytes(address: string, key: string): Buffer {
  return createHmac('sha256', key).update(`recipient:${normalAddress(address)}`).digest().subarray(0, FINGERPRINT_BYTES);
}

function macOf(requestNumber: number, body: Buffer, key: string): Buffer {
  return createHmac('sha256', key).update(`reply-token:v1:${requestNumber}:`).update(body).digest().subarray(0, MAC_BYTES);
}

/** The token for `recipient` (an email address, any case) to answer request `requestNumber` by email. */
export function issueReplyToken(input: { requestNumber: number; recipient: string }, key: string, now: Date = new Date()): string {
  if (!Number.isSafeInteger(input.requestNumber) || input.requestNumber < 1 || input.requestNumber > 9_999_999_999) {
    throw new RangeError(`not a request number: ${input.requestNumber}`);
  }
  const day = Math.max(0, Math.min(0xffff, Math.floor((now.getTime() - EPOCH_MS) / DAY_MS)));
  const body = Buffer.alloc(2 + FINGERPRINT_BYTES);
  body.writeUInt16BE(day, 0);
  fingerprintBytes(input.recipient, key).copy(body, 2);
  return `${input.requestNumber}-${base32Encode(Buffer.concat([body, macOf(input.requestNumber, body, key)]))}`;
}

/**
 * The claims of a genuine token (any case), or null when it is malformed or was not signed with `key` (forged,
 * altered, or signed before the key was rotated). An old genuine token comes back with `expired: true`.
 */
export function verifyReplyToken(
  token: string, key: string, options: { now?: Date; maxAgeDays?: number } = {},
): ReplyTokenClaims | null {
  const match = REPLY_TOKEN_PATTERN.exec(token.trim().toLowerCase());
  if (!match) return null;
  const requestNumber = Number(match[1]);
  const bytes = base32Decode(match[2]);
  if (!bytes || bytes.length !== 2 + FINGERPRINT_BYTES + MAC_BYTES) return null;
  const raw = Buffer.from(bytes);
  const body = raw.subarray(0, 2 + FINGERPRINT_BYTES);
  if (!timingSafeEqual(raw.subarray(2 + FINGERPRINT_BYTES), macOf(requestNumber, body, key))) return null;
  const issuedOn = new Date(EPOCH_MS + body.readUInt16BE(0) * DAY_MS);
  const now = options.now ?? new Date();
  const maxAgeDays = options.maxAgeDays ?? DEFAULT_REPLY_TOKEN_MAX_AGE_DAYS;
  return {
    requestNumber,
    recipientFingerprint: body.subarray(2).toString('hex'),
    issuedOn,
    // Issued days are whole UTC days: a token issued today is 0 days old all day.
    expired: now.getTime() - issuedOn.getTime() >= (maxAgeDays + 1) * DAY_MS,
  };
}

/** Whether the token of `claims` was issued to `address` (any case). */
export function isIssuedTo(claims: Pick<ReplyTokenClaims, 'recipientFingerprint'>, address: string, key: string): boolean {
  return fingerprintBytes(address, key).toString('hex') === claims.recipientFingerprint;
}

/**
 * The genuine token among `addresses` (the recipients of a received message), or null when none of them is a reply
 * address this portal signed: the check the listener makes at RCPT and the mailbox poller before storing, so a forged
 * reply address costs neither storage nor an answer. An expired token is genuine: its sender is told to use a newer
 * email.
 */
export function genuineReplyToken(
  addresses: Iterable<string>, reply: { local: string; domain: string | null; tokenKey: string },
): { token: string; requestNumber: number } | null {
  if (!reply.domain) return null;
  for (const address of addresses) {
    const token = parseReplyAddress(address, reply.local, reply.domain);
    const claims = token ? verifyReplyToken(token, reply.tokenKey, { maxAgeDays: Number.MAX_SAFE_INTEGER }) : null;
    if (token && claims) return { token, requestNumber: claims.requestNumber };
  }
  return null;
}
