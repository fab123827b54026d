/**
 * What a failed authentication does to the session and the stored token (spec 2 §8.1): an authentication error with a code above
 * 400 and below 408 (NotAuthenticated, PaymentError, Forbidden, NotFound, MethodNotAllowed, NotAcceptable) removes
 * it; any other error (a refused connection, a 5xx, a timeout) resets the session but keeps the token, so the API
 * being down never signs anybody out: the next page load re-authenticates with the same token.
 */
import { ApiError } from './api-error';

export const removesStoredToken = (error: unknown): boolean =>
  error instanceof ApiError && error.code > 400 && error.code < 408;

/** The login page's state after a lost session: a deactivated account, or an expired session otherwise. */
export const loginStateAfter = (error: unknown): { authFail?: true; inactiveUser?: true } =>
  (error instanceof ApiError && error.reason === 'inactiveUser' ? { inactiveUser: true } : { authFail: true });

/**
 * Whether a failed re-check of the stored token ends the session: only a 401 (the token is over, or the account
 * deactivated) or a token gone from storage. A refusal for load (429), a 5xx or a refused connection says nothing
 * about the session: the user stays signed in, and a page load tries again.
 */
export const endsSession = (error: unknown): boolean => !(error instanceof ApiError) || error.code === 401;

/** When to check again after a failure that did not end the session: what the API asked, else 1, 2, 4 … 30 s. */
export function recheckDelayMs(failures: number, error: unknown): number {
  const asked = error instanceof ApiError ? (error.data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds : undefined;
  const seconds = typeof asked === 'number' && asked > 0 ? asked : 2 ** failures;
  return Math.min(30, seconds) * 1000;
}
