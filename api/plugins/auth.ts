import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../domain';
import { ApiError, forbidden, notAuthenticated } from '../errors';
import { sessionFromToken, type TokenClaims } from '../sessions/session-user';
import type { SessionUser } from '../../contract/session-user.schema';
import { looksLikeApiKey } from '../../domain/api-keys';
import { sessionFromApiKey } from '../sessions/api-key-session';

/** Tokens are HS256 only, issued and checked with this issuer and audience, and expire after a day. */
export const JWT_ALGORITHM = 'HS256';
export const JWT_ISSUER = 'coi-portal';
export const JWT_AUDIENCE = 'coi-portal-api';
const JWT_LIFETIME = '1d';
/** Verified tokens a process remembers (about 300 bytes each). */
const VERIFIED_TOKENS_CACHED = 10_000;

/**
 * Bearer tokens (spec 2 §7.2). Every route but authentication and health requires a valid token; `requireAdmin`
 * guards admin-only routes. Routes run them as `onRequest` hooks, so a caller without a session hears 401 before
 * its body is read or validated. Access is decided here and in the services, never trusted to the browser.
 *
 * A token names the user and the user's session version: logging out (or changing the password) raises the
 * version, so every earlier token is refused on the next call. A deactivated user is refused with
 * `User account has been deactivated.`. A bearer token shaped `coi_…` is an organisation's API key instead
 * (api/sessions/api-key-session.ts): the request is then marked `request.apiKey`. A user whose password expired or must change is held to the password
 * change (`requirePasswordChangeUser`) and refused everywhere else with 403 `passwordChangeRequired`.
 */
export default fp(async (app) => {
  await app.register(jwt, {
    secret: app.config.jwtSecret,
    sign: { algorithm: JWT_ALGORITHM, iss: JWT_ISSUER, aud: JWT_AUDIENCE, expiresIn: JWT_LIFETIME },
    // A verified token is remembered (fast-jwt's LRU, never past its expiry): the next call with it hashes it instead
    // of checking its HMAC and claims again (3% of a list call's CPU). A logout or password change still
    // refuses it at once: the session version is read from PostgreSQL on every call.
    verify: { algorithms: [JWT_ALGORITHM], allowedIss: JWT_ISSUER, allowedAud: JWT_AUDIENCE, cache: VERIFIED_TOKENS_CACHED },
  });
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('apiKey', null);
}, { name: 'auth', dependencies: ['orm-context'] });

/** Signs a token for a user at their current session version. */
export const signSessionToken = (app: FastifyInstance, user: { id: number; sessionVersion: number }) =>
  app.jwt.sign({ sub: String(user.id), sv: user.sessionVersion });

/**
 * What a token is: the claims of one the portal signed and that is still in force; `expired` for one the portal signed
 * whose day has passed (a person's old session); `forged` for anything else (a bad signature, another algorithm,
 * issuer or audience, garbage), which no browser of ours ever holds. fast-jwt checks the signature before the expiry,
 * so an expired token is one the portal signed.
 */
export type TokenCheck = { claims: TokenClaims } | { refused: 'expired' | 'forged' };

export function checkSessionToken(app: FastifyInstance, token: string): TokenCheck {
  try {
    const claims = app.jwt.verify<{ sub: string; sv?: number }>(token);
    const id = Number(claims.sub);
    if (!Number.isInteger(id) || typeof claims.sv !== 'number') return { refused: 'forged' };
    return { claims: { id, sessionVersion: claims.sv } };
  } catch (error) {
    return { refused: (error as { code?: string }).code === 'FAST_JWT_EXPIRED' ? 'expired' : 'forged' };
  }
}

/** Verifies a token (signature, algorithm, issuer, audience, expiry); null when any check fails. */
export function verifySessionToken(app: FastifyInstance, token: string): TokenClaims | null {
  const checked = checkSessionToken(app, token);
  return 'claims' in checked ? checked.claims : null;
}

const passwordChangeRequired = () =>
  new ApiError(403, MESSAGES.passwordChangeRequired, { reason: 'passwordChangeRequired' });

async function authenticate(request: FastifyRequest, options: { allowPasswordChange: boolean }): Promise<SessionUser> {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer (.+)$/i.exec(header);
  const token = match?.[1].trim() ?? '';
  // An organisation's system calling with an API key (api/sessions/api-key-session.ts): its scopes, never an admin.
  if (looksLikeApiKey(token)) {
    request.sessionUser = await sessionFromApiKey(request, token);
    return request.sessionUser;
  }
  const claims = match ? verifySessionToken(request.server, token) : null;
  if (!claims) throw notAuthenticated('Not authenticated');
  const user = await sessionFromToken(request.server.orm.em, claims, request.server.config); // one raw statement: no fork (orm-context.ts)
  if (!options.allowPasswordChange && (user.mustChangePassword || user.isPswdExpired)) throw passwordChangeRequired();
  request.sessionUser = user;
  return user;
}

export const requireUser = async (request: FastifyRequest) => { await authenticate(request, { allowPasswordChange: false }); };

/** For the calls a user held to the password page may still make (change password, profile, log out). */
export const requirePasswordChangeUser = async (request: FastifyRequest) => {
  await authenticate(request, { allowPasswordChange: true });
};

export const requireAdmin = async (request: FastifyRequest) => {
  const user = await authenticate(request, { allowPasswordChange: false });
  if (!user.isAdmin) throw forbidden('Administrators only');
};

export const currentUser = (request: FastifyRequest): SessionUser => {
  if (!request.sessionUser) throw notAuthenticated();
  return request.sessionUser;
};
