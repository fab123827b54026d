import fp from 'fastify-plugin';
import jwt from '@fastify/jwt';
import type { FastifyRequest } from 'fastify';
import { forbidden, notAuthenticated } from '../errors';
import { loadSessionUser } from '../services/session-user';
import type { SessionUser } from '../schemas/session-user.schema';

/**
 * Bearer tokens (spec 2 §7.2). Every route but authentication and health requires a valid token; `requireAdmin`
 * guards admin-only routes. Routes run them as `onRequest` hooks, so a caller without a session hears 401 before
 * its body is read or validated. Access is decided here and in the services, never trusted to the browser.
 */
export default fp(async (app) => {
  await app.register(jwt, { secret: app.config.jwtSecret, sign: { expiresIn: '1d' } });
  app.decorateRequest('sessionUser', null);
}, { name: 'auth', dependencies: ['orm-context'] });

export async function authenticate(request: FastifyRequest): Promise<SessionUser> {
  let payload: { sub: number };
  try {
    payload = await request.jwtVerify<{ sub: number }>();
  } catch {
    throw notAuthenticated('Not authenticated');
  }
  const user = await loadSessionUser(request.em, Number(payload.sub));
  if (!user) throw notAuthenticated('User account has been deactivated.', { reason: 'inactiveUser' });
  request.sessionUser = user;
  return user;
}

export const requireUser = async (request: FastifyRequest) => { await authenticate(request); };

export const requireAdmin = async (request: FastifyRequest) => {
  const user = await authenticate(request);
  if (!user.isAdmin) throw forbidden('Administrators only');
};

export const currentUser = (request: FastifyRequest): SessionUser => {
  if (!request.sessionUser) throw notAuthenticated();
  return request.sessionUser;
};
