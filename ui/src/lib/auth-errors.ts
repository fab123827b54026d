/**
 * What a failed authentication does to the stored token (spec 2 §8.1): an authentication error with a code above
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
