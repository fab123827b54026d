/**
 * Why a use case says no, whatever door asked: the services throw these, never a door's error. Each door says them
 * once in its own words: the API as the spec's error shape and status (api/plugins/error-handler.ts), an activity as
 * an ApplicationFailure (`asApplicationFailure` below, for the worker's doors: replies by email, wake-ups).
 *
 * `fieldErrors`: the spec's message per form field; `data`: what a caller may act on (a reason, a limit, a
 * `retryAfterSeconds`).
 */
import { ApplicationFailure } from '@temporalio/common';

export type RefusalKind =
  /** the input breaks a rule (a field, a state the request is not in) */
  | 'invalid'
  /** the caller may not do this */
  | 'forbidden'
  | 'not-found'
  /** it clashes with what is stored (a newer version, an address in use) */
  | 'conflict'
  | 'too-large'
  /** a file of a type the portal does not take */
  | 'unsupported-type'
  /** bytes that arrived too slowly to be kept */
  | 'too-slow'
  /** a quota or limit is used up for now */
  | 'over-quota'
  /** the work was tried and did not succeed (a letter that could not be made) */
  | 'failed'
  /** something the use case needs does not answer now: the same call may succeed later */
  | 'unavailable';

export class Refusal extends Error {
  override readonly name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const invalid = (message: string, fieldErrors: Record<string, string> = {}, data: Record<string, unknown> = {}) =>
  new Refusal('invalid', message, fieldErrors, data);
export const forbidden = (message = 'You do not have permission to do this') => new Refusal('forbidden', message);
export const notFound = (message = 'Resource not found') => new Refusal('not-found', message);
export const conflict = (message: string, fieldErrors: Record<string, string> = {}, data: Record<string, unknown> = {}) =>
  new Refusal('conflict', message, fieldErrors, data);
export const tooLarge = (message: string) => new Refusal('too-large', message);
export const unsupportedType = (message: string) => new Refusal('unsupported-type', message);
export const tooSlow = (message: string) => new Refusal('too-slow', message);
export const overQuota = (message: string, data: Record<string, unknown> = {}) => new Refusal('over-quota', message, {}, data);
export const failed = (message: string) => new Refusal('failed', message);
export const unavailable = (message: string) => new Refusal('unavailable', message);

/** The ApplicationFailure type an activity reports a refusal with (Temporal shows it; the workflow may match on it). */
export const REFUSAL_FAILURE_TYPES: Readonly<Record<RefusalKind, string>> = {
  invalid: 'BadRequest', forbidden: 'Forbidden', 'not-found': 'NotFound', conflict: 'Conflict', 'too-large': 'TooLarge',
  'unsupported-type': 'UnsupportedType', 'too-slow': 'TooSlow', 'over-quota': 'OverQuota', failed: 'Failed', unavailable: 'Unavailable',
};

/** Kinds an activity retries: the same call may succeed in a moment. */
const RETRYABLE_REFUSALS: ReadonlySet<RefusalKind> = new Set(['unavailable']);

/** A refusal as an activity reports it: retried when it may pass later, else final, with its kind as the failure type. */
export function asApplicationFailure(refusal: Refusal): ApplicationFailure {
  const type = REFUSAL_FAILURE_TYPES[refusal.kind];
  const details = [{ fieldErrors: refusal.fieldErrors, data: refusal.data }];
  return RETRYABLE_REFUSALS.has(refusal.kind)
    ? ApplicationFailure.retryable(refusal.message, type, ...details)
    : ApplicationFailure.nonRetryable(refusal.message, type, ...details);
}
