/**
 * Known browsers: after a successful password sign-in the browser keeps an HttpOnly cookie that
 * names the accounts it signed in to, each by a keyed hash of the email (the cookie does not reveal addresses), with
 * an HMAC of the whole (server key) so it cannot be forged. An attacker's failures on an account are counted against
 * the account and the attacker's address; the owner's browser, carrying this cookie, is exempt from both and meets
 * only its own limit, so nobody can keep the owner out by failing on purpose. No server memory: any API process
 * reads it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { KNOWN_DEVICE_ACCOUNTS, KNOWN_DEVICE_DAYS } from '../../domain/abuse-limits';

const KNOWN_DEVICE_COOKIE = 'coi_device';
const COOKIE_PATH = '/api/v1/authentication';
const DAY_MS = 86_400_000;

interface KnownDevice {
  /** random id of this browser, the key of its own failure count */
  id: string;
  /** account hash → day (ms since epoch / day) of its last successful sign-in here, newest first */
  accounts: Array<[string, number]>;
}

const mac = (serverKey: string, body: string) => createHmac('sha256', `known-device:${serverKey}`).update(body).digest('base64url');
const accountHash = (serverKey: string, email: string) =>
  createHmac('sha256', `known-device-account:${serverKey}`).update(email.trim().toLowerCase()).digest('base64url').slice(0, 16);

/** The browser's known-device cookie, or null when it has none (or one this server did not make). */
export function readKnownDevice(serverKey: string, cookieHeader: string | undefined): KnownDevice | null {
  const raw = (cookieHeader ?? '').split(';').map((part) => part.trim()).find((part) => part.startsWith(`${KNOWN_DEVICE_COOKIE}=`));
  const [body, given] = (raw?.slice(KNOWN_DEVICE_COOKIE.length + 1) ?? '').split('.');
  if (!body || !given) return null;
  const a = Buffer.from(given);
  const b = Buffer.from(mac(serverKey, body));
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  try {
    const value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as KnownDevice;
    if (typeof value.id !== 'string' || !Array.isArray(value.accounts)) return null;
    return value;
  } catch {
    return null;
  }
}

/** Whether this browser signed in to `email` within KNOWN_DEVICE_DAYS. */
export function knowsAccount(serverKey: string, device: KnownDevice | null, email: string, now = Date.now()): boolean {
  if (!device) return false;
  const hash = accountHash(serverKey, email);
  const today = Math.floor(now / DAY_MS);
  return device.accounts.some(([account, day]) => account === hash && today - day <= KNOWN_DEVICE_DAYS);
}

/** The Set-Cookie header after a successful sign-in to `email`: this account first, at most KNOWN_DEVICE_ACCOUNTS. */
export function knownDeviceCookie(serverKey: string, device: KnownDevice | null, email: string, secure: boolean, now = Date.now()): string {
  const hash = accountHash(serverKey, email);
  const today = Math.floor(now / DAY_MS);
  const accounts: Array<[string, number]> = [[hash, today], ...(device?.accounts ?? []).filter(([account, day]) => account !== hash && today - day <= KNOWN_DEVICE_DAYS)];
  const value: KnownDevice = { id: device?.id ?? randomBytes(12).toString('base64url'), accounts: accounts.slice(0, KNOWN_DEVICE_ACCOUNTS) };
  const body = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${KNOWN_DEVICE_COOKIE}=${body}.${mac(serverKey, body)}; Path=${COOKIE_PATH}; Max-Age=${KNOWN_DEVICE_DAYS * 86_400}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}
