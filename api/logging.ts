/**
 * The API's log lines (pino, JSON): what a call's lines say about it. Fastify's default would print the whole URL, and
 * with LOG_LEVEL=info in production (issue #21) every call is logged: a password-reset or email-confirmation link's
 * token would land in the log files, and with it the account to whoever reads them; a search's query string names
 * clinicians. So a route that carries a secret in its path is logged by its pattern, and query values are left out
 * (their names stay, which is what an operator reads a slow call by).
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Writable } from 'node:stream';
import type { LogLevelSetting } from '../config/app-config';

/** Routes whose path holds a secret (a single-use token): never logged as sent. */
export const SECRET_PATH_ROUTES: ReadonlySet<string> = new Set(['/api/v1/password-reset/:id', '/api/v1/email-confirmations/:token']);

/** The URL as it may be logged: the route's pattern for a secret-bearing path, query values replaced by `…`. */
export function loggableUrl(url: string, routePattern: string | undefined): string {
  if (routePattern && SECRET_PATH_ROUTES.has(routePattern)) return routePattern;
  const at = url.indexOf('?');
  if (at < 0) return url;
  const keys = [...new URLSearchParams(url.slice(at + 1)).keys()];
  return `${url.slice(0, at)}?${[...new Set(keys)].map((key) => `${key}=…`).join('&')}`;
}

export function apiLoggerOptions(level: LogLevelSetting, stream?: Writable): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request.url, request.routeOptions?.url),
        remoteAddress: request.ip,
      }),
    },
  };
}
