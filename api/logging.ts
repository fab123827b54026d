/**
 * The API's log lines (pino, JSON): what a call's lines say about it. Fastify's default would print the whole URL, and
 * with LOG_LEVEL=info in production every call is logged: a password-reset or email-confirmation link's
 * token would land in the log files, and with it the account to whoever reads them; a search's query string names
 * clinicians. So a path that carries a secret is logged with the secret replaced by its parameter's name, and query
 * values are left out (their names stay, which is what an operator reads a slow call by).
 *
 * Secret paths are matched on the URL itself, not on the route that served it: the UI's pages (`/login/password-reset/
 * <token>`, opened from an email) are answered by the not-found handler that serves index.html, which has no route
 * pattern of its own, and a mistyped or retired link must not log its token either.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Writable } from 'node:stream';
import type { LogLevelSetting } from '../config/app-config';

/** API routes whose path holds a secret (a single-use token). */
export const SECRET_PATH_ROUTES: ReadonlySet<string> = new Set(['/api/v1/password-reset/:id', '/api/v1/email-confirmations/:token']);
/** The UI's pages whose path holds one (ui/src/lib/paths.ts): the links the emails carry. */
export const SECRET_PAGE_PATHS: ReadonlySet<string> = new Set(['/login/password-reset/:id', '/login/confirm-email/:token']);

/** `/a/b/:param` → the prefix `/a/b/` and the placeholder `:param`. */
const SECRET_PREFIXES = [...SECRET_PATH_ROUTES, ...SECRET_PAGE_PATHS].map((pattern) => {
  const at = pattern.lastIndexOf('/') + 1;
  return { prefix: pattern.slice(0, at).toLowerCase(), placeholder: pattern.slice(at) };
});

/** The path as it may be logged: the segment after a secret-bearing prefix (and anything after it) replaced. */
function loggablePath(path: string): string {
  const lower = path.toLowerCase();
  for (const { prefix, placeholder } of SECRET_PREFIXES) {
    if (lower.startsWith(prefix) && path.length > prefix.length) return `${path.slice(0, prefix.length)}${placeholder}`;
  }
  return path;
}

/** The URL as it may be logged: secrets in the path replaced by their parameter's name, query values by `…`. */
function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  const path = loggablePath(at < 0 ? url : url.slice(0, at));
  if (at < 0) return path;
  const keys = [...new URLSearchParams(url.slice(at + 1)).keys()];
  return `${path}?${[...new Set(keys)].map((key) => `${key}=…`).join('&')}`;
}

export function apiLoggerOptions(level: LogLevelSetting, stream?: Writable): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}
