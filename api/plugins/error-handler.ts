import fp from 'fastify-plugin';
import { ConnectionException, NotFoundError, OptimisticLockError, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import { QUOTA_MESSAGES, SIGN_IN_MESSAGES } from '../../domain/abuse-limits';
import { uploadTooLargeMessage } from '../../domain/limits';
import { looksLikeApiKey } from '../../domain/api-keys';
import { PasswordHashingBusy } from '../../services/accounts/password-hash';
import { ApiError, apiErrorOf, errorBody } from '../errors';
import { recordAccessRefused } from '../../services/desk/security-log';

/**
 * Refusals of calls that look authenticated (a bearer token) go to the security log; a sign-in with a wrong
 * password is logged by sign-in itself. On a fresh entity manager: the request's may sit in a failed transaction.
 * A failure to log is reported, never turned into a different answer.
 */
async function logRefusal(request: FastifyRequest, status: number) {
  const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '');
  if (!bearer) return;
  // A key refused at the door has its own line already (api/sessions/api-key-session.ts).
  if (looksLikeApiKey(bearer[1].trim()) && !request.apiKey) return;
  try {
    await recordAccessRefused(request.server.orm.em.fork() as EntityManager, {
      userId: request.sessionUser?.id ?? null, email: request.sessionUser?.email ?? null, ip: request.ip,
      method: request.method, route: request.routeOptions.url ?? request.url.split('?')[0], status,
    });
  } catch (err) {
    request.log.error({ err }, 'could not log a refusal');
  }
}

export const DATABASE_UNAVAILABLE_MESSAGE = 'The portal cannot reach its database at the moment. Please try again in a minute.';

/** SQLSTATEs of a server that is going away or not taking connections (57P01–57P03, 53300) and class 08 (connection). */
const UNAVAILABLE_SQLSTATE = /^(08\w{3}|57P0[123]|53300)$/;
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
const UNAVAILABLE_TEXT = /is not currently accepting connections|Connection terminated|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery mode)|Client has encountered a connection error/i;

/**
 * PostgreSQL away (an outage is an error in seconds, never a hang): the call is answered 503 in the
 * spec's shape, which a browser or a client may try again, rather than 500. Looks through MikroORM's wrapping.
 */
function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth += 1) {
    if (e instanceof ConnectionException) return true;
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET.has(code)) return true;
    if (typeof e.message === 'string' && (UNAVAILABLE_TEXT.test(e.message) || /^connect (ECONNREFUSED|ETIMEDOUT)/.test(e.message))) return true;
  }
  return false;
}

export const UNREADABLE_MULTIPART_MESSAGE = 'The upload could not be read: send the file as multipart/form-data';

/**
 * A body that says it is multipart but is not (no boundary, cut short, broken part headers): the parser (busboy,
 * through @fastify/multipart) throws plain errors, which would otherwise leave as 500s.
 */
function isUnreadableMultipart(error: { code?: string; message?: string }): boolean {
  if (error.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return true;
  return /^Multipart: |Unexpected end of (form|multipart data)|Malformed part header|Boundary not found/i.test(error.message ?? '');
}

/** Every error leaves as `{ name, message, code, className, data, errors }`; 5xx internals are logged, not shown. */
export default fp(async (app) => {
  app.setErrorHandler(async (thrown: any, request, reply) => {
    const error = apiErrorOf(thrown) as any;
    if (error instanceof ApiError) {
      if (error.code === 401 || error.code === 403) await logRefusal(request, error.code);
      // A refusal that knows when its window ends says so (HTTP Retry-After), as well as in its body.
      if (typeof error.data.retryAfterSeconds === 'number') reply.header('retry-after', String(error.data.retryAfterSeconds));
      return reply.code(error.code).send(error.toJSON());
    }
    if (error.validation) {
      const errors: Record<string, string> = {};
      for (const v of error.validation) {
        const field = (v.instancePath?.replace(/^\//, '') || v.params?.missingProperty || 'body').replace(/\//g, '.');
        errors[field] = v.keyword === 'required' ? 'The field above is required' : v.message ?? 'Field validation error.';
      }
      return reply.code(400).send(errorBody(400, error.message, errors));
    }
    if (error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_PARTS_LIMIT' || error.code === 'FST_FILES_LIMIT') {
      return reply.code(413).send(errorBody(413, uploadTooLargeMessage(app.config.uploadMaxBytes)));
    }
    if (isUnreadableMultipart(error)) {
      return reply.code(400).send(errorBody(400, UNREADABLE_MULTIPART_MESSAGE));
    }
    if (error instanceof PasswordHashingBusy) {
      return reply.code(503).header('retry-after', String(error.retryAfterSeconds)).send(errorBody(503, SIGN_IN_MESSAGES.hashingBusy));
    }
    if (error.statusCode === 429) {
      return reply.code(429).send(errorBody(429, QUOTA_MESSAGES.tooManyCalls));
    }
    if (error instanceof NotFoundError) return reply.code(404).send(errorBody(404, 'Resource not found'));
    if (error instanceof OptimisticLockError) return reply.code(409).send(errorBody(409, 'This request changed meanwhile: reload and try again'));
    if (error instanceof UniqueConstraintViolationException) return reply.code(409).send(errorBody(409, 'This record already exists'));
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).send(errorBody(503, DATABASE_UNAVAILABLE_MESSAGE));
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send(errorBody(status, 'Oops, something went wrong. Please refresh this page to try again.'));
    }
    return reply.code(status).send(errorBody(status, error.message));
  });
}, { name: 'error-handler' });
