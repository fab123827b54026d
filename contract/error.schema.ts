/** The error shape of spec 2 §8.1, as every route documents it (api/errors.ts builds it). */
import { Type, type TSchema } from 'typebox';

export const ApiErrorBody = Type.Object({
  name: Type.String({ description: 'BadRequest, NotAuthenticated, Forbidden, NotFound, Conflict, …' }),
  message: Type.String(),
  code: Type.Integer({ description: 'the HTTP status' }),
  className: Type.String({ description: 'kebab-case name, e.g. bad-request' }),
  data: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true } as TSchema),
  errors: Type.Unsafe<Record<string, string>>({
    type: 'object', additionalProperties: { type: 'string' }, description: 'one message per invalid field',
  } as TSchema),
});

type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 408 | 409 | 410 | 413 | 422 | 429 | 500 | 503;

/**
 * `{ 401: ApiErrorBody, 403: ApiErrorBody, … }` for a route's `response`: the error statuses it can answer, so the
 * OpenAPI document lists them and their bodies are serialized with the same schema.
 */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]): Record<S, typeof ApiErrorBody> {
  return Object.fromEntries(statuses.map((status) => [status, ApiErrorBody])) as Record<S, typeof ApiErrorBody>;
}
