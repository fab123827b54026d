/**
 * Errors in the shape of spec 2 §8.1: `{ name, message, code, className, data, errors }`, named by HTTP status.
 */
import { httpErrorName } from '../domain/http-errors';
import { Refusal, type RefusalKind } from '../services/refusals';

const kebab = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();

export class ApiError extends Error {
  readonly name: string;
  constructor(
    readonly code: number,
    message: string,
    readonly data: Record<string, unknown> = {},
    readonly errors: Record<string, string> = {},
  ) {
    super(message);
    this.name = httpErrorName(code);
  }

  toJSON() {
    return { name: this.name, message: this.message, code: this.code, className: kebab(this.name), data: this.data, errors: this.errors };
  }
}

export const badRequest = (message: string, errors: Record<string, string> = {}, data: Record<string, unknown> = {}) =>
  new ApiError(400, message, data, errors);
export const notAuthenticated = (message = 'Not authenticated', data: Record<string, unknown> = {}) => new ApiError(401, message, data);
export const forbidden = (message = 'You do not have permission to do this') => new ApiError(403, message);
export const notFound = (message = 'Resource not found') => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const methodNotAllowed = (message = 'Method not supported for this service') => new ApiError(405, message);
export const unavailable = (message: string) => new ApiError(503, message);

export function errorBody(code: number, message: string, errors: Record<string, string> = {}, data: Record<string, unknown> = {}) {
  return new ApiError(code, message, data, errors).toJSON();
}

/** The HTTP status of each refusal a use case gives (services/refusals.ts). */
const REFUSAL_STATUS: Readonly<Record<RefusalKind, number>> = {
  invalid: 400, forbidden: 403, 'not-found': 404, 'too-slow': 408, conflict: 409, 'too-large': 413, 'unsupported-type': 422,
  'over-quota': 429, failed: 500, unavailable: 503,
};

/** A use case's refusal as the API answers it (spec 2 §8.1's shape); anything else is left as it is. */
export function apiErrorOf(error: unknown): unknown {
  return error instanceof Refusal ? new ApiError(REFUSAL_STATUS[error.kind], error.message, error.data, error.fieldErrors) : error;
}
