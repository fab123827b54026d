/**
 * Login CSRF: a SAML answer is accepted only in the browser that started that sign-in. At
 * /saml/{product}/login the browser gets a short-lived HttpOnly cookie naming the AuthnRequest id with an HMAC of it
 * (server key): no server memory, so any API process can check it. An attacker who signs in at the IdP as
 * themself and makes a victim's browser post the answer fails: the victim's browser holds no cookie for that
 * request id (or one for another).
 *
 * SameSite=Lax: the cookie is sent on the top-level GET that follows a redirect, but not on the IdP's cross-site POST
 * to the consumer URL when the IdP lives on another site. So the consumer URL checks the cookie when it has it, and
 * otherwise hands over to /saml/{product}/complete with a two-minute signed ticket naming the request id, where the
 * cookie arrives and is checked (routes/saml.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SSO_HANDOFF_COOKIE } from '../../../domain/single-sign-on';
import { REQUEST_LIFETIME_MS } from './service-provider';

const BINDING_COOKIE = 'coi_sso_request';
const COOKIE_PATH = '/saml/';

const mac = (serverKey: string, requestId: string) => createHmac('sha256', `saml-browser:${serverKey}`).update(requestId).digest('base64url');

export function bindingCookie(serverKey: string, requestId: string, secure: boolean): string {
  const value = `${encodeURIComponent(requestId)}.${mac(serverKey, requestId)}`;
  return `${BINDING_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${REQUEST_LIFETIME_MS / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export const clearBindingCookie = (secure: boolean) =>
  `${BINDING_COOKIE}=; Path=${COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/**
 * The mark of one hand-over to the login page (domain/single-sign-on.ts SSO_HANDOFF_COOKIE): readable by the page's
 * script (not HttpOnly), on /login only, for two minutes.
 */
export function handoffMark(secure: boolean): { mark: string; cookie: string } {
  const mark = randomBytes(16).toString('base64url');
  return { mark, cookie: `${SSO_HANDOFF_COOKIE}=${mark}; Path=/login; Max-Age=120; SameSite=Lax${secure ? '; Secure' : ''}` };
}

/** The request id the browser's cookie vouches for, or null (no cookie, or one not made by this server). */
export function boundRequestId(serverKey: string, cookieHeader: string | undefined): string | null {
  const raw = (cookieHeader ?? '').split(';').map((part) => part.trim()).find((part) => part.startsWith(`${BINDING_COOKIE}=`));
  const value = raw?.slice(BINDING_COOKIE.length + 1) ?? '';
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return null;
  let requestId: string;
  try {
    requestId = decodeURIComponent(value.slice(0, dot));
  } catch {
    return null;
  }
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(serverKey, requestId));
  return given.length === expected.length && timingSafeEqual(given, expected) ? requestId : null;
}

/** How long the hand-over from the consumer URL to /complete may take (one redirect). */
const TICKET_LIFETIME_MS = 2 * 60_000;
const ticketMac = (serverKey: string, body: string) => createHmac('sha256', `saml-ticket:${serverKey}`).update(body).digest('base64url');

/** A signed, short-lived ticket: "user `userId` answered request `requestId`", for /complete to check against the cookie. */
export function completionTicket(serverKey: string, userId: number, requestId: string, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ u: userId, r: requestId, e: now + TICKET_LIFETIME_MS })).toString('base64url');
  return `${body}.${ticketMac(serverKey, body)}`;
}

export function readCompletionTicket(serverKey: string, ticket: string, now = Date.now()): { userId: number; requestId: string } | null {
  const [body, given] = ticket.split('.');
  if (!body || !given) return null;
  const a = Buffer.from(given);
  const b = Buffer.from(ticketMac(serverKey, body));
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  try {
    const { u, r, e } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { u: number; r: string; e: number };
    return Number.isInteger(u) && typeof r === 'string' && e > now ? { userId: u, requestId: r } : null;
  } catch {
    return null;
  }
}
