import type { ApiErrorBody as ApiErrorBodySchema } from '../../../contract/error.schema';
import type { Wire } from '../../../contract/wire';
import { HTTP_ERROR_NAMES, httpErrorName } from '../../../domain/http-errors';

/**
 * The API's error body (contract/error.schema.ts), every part optional: a failure may also come from something in
 * between (a proxy's 502 page, a refused connection), and some servers send arrays or objects in `errors`.
 */
export type ApiErrorBody = Partial<Omit<Wire<typeof ApiErrorBodySchema>, 'data' | 'errors'>> & { data?: unknown; errors?: unknown };

/** A failed call in the API's error shape `{ name, message, code, className, data, errors }`. */
export class ApiError extends Error {
  readonly code: number;
  readonly className: string;
  readonly data: unknown;
  /** Field messages, e.g. `{ lastName: 'The field above is required' }`. */
  readonly errors: Record<string, string>;

  constructor(status: number, body: ApiErrorBody = {}) {
    super(body.message || HTTP_ERROR_NAMES[status] || `Request failed (${status})`);
    this.code = body.code ?? status;
    this.name = body.name ?? httpErrorName(status);
    this.className = body.className ?? '';
    this.data = body.data;
    this.errors = fieldMessages(body.errors);
  }

  /** `data.reason` of a refused sign-in: 'authFail' or 'inactiveUser' (the login page's states). */
  get reason(): string | undefined {
    const reason = (this.data as { reason?: unknown } | undefined)?.reason;
    return typeof reason === 'string' ? reason : undefined;
  }

  get hasFieldErrors(): boolean {
    return Object.keys(this.errors).length > 0;
  }
}

/** Keeps only `field: message` string pairs (some servers send arrays or objects in `errors`). */
function fieldMessages(errors: unknown): Record<string, string> {
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return {};
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    if (typeof message === 'string') out[field] = message;
    else if (message && typeof message === 'object' && typeof (message as { message?: unknown }).message === 'string') {
      out[field] = (message as { message: string }).message;
    }
  }
  return out;
}

/** A refused connection becomes Unavailable (spec 2 §8.1). */
export const unavailableError = (cause: unknown) =>
  new ApiError(503, { message: cause instanceof Error ? cause.message : 'Service unavailable' });

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;
