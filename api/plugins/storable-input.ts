/**
 * Input PostgreSQL cannot store is refused as a 400 before any handler runs (found by the fuzz test):
 * - numbers: every `integer` (and `number`) in a route's params, query and body schema is bounded to PostgreSQL's
 *   int4 (ids, $skip, $limit, orders) unless its schema bounds it tighter, so 2147483648 or 1e300 is refused. ajv's
 *   type coercion still turns "Infinity" or "1e309" into Infinity and lets it past `integer` and `maximum` alike
 *   (a known gap of coercion), so a non-finite number left after validation is refused too;
 * - text: a string holding a NUL character ("\u0000"), which PostgreSQL's text cannot hold, anywhere in the body,
 *   query or params.
 * - fields: a body object whose schema does not say otherwise carries only the fields its schema names (with ajv's
 *   removeAdditional the others are dropped), so no service can assign a column the caller was never meant to set
 *   (an external requester once made themself internal by adding `isExternal: false` to their profile).
 * Registered before the routes: it rewrites each route's schema as the route is added.
 */
import fp from 'fastify-plugin';
import type { RouteOptions } from 'fastify';
import { badRequest } from '../errors';

const INT4 = { minimum: -2147483648, maximum: 2147483647 };
/** Beyond this a JavaScript number is no longer exact; no field of the spec comes near it. */
const SAFE_NUMBER = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

function bound(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) { schema.forEach(bound); return; }
  const node = schema as Record<string, unknown>;
  const types = ([] as unknown[]).concat(node.type ?? []);
  const limits = types.includes('integer') ? INT4 : types.includes('number') ? SAFE_NUMBER : null;
  if (limits) {
    node.minimum = typeof node.minimum === 'number' ? Math.max(node.minimum, limits.minimum) : limits.minimum;
    node.maximum = typeof node.maximum === 'number' ? Math.min(node.maximum, limits.maximum) : limits.maximum;
  }
  for (const value of Object.values(node)) if (value && typeof value === 'object') bound(value);
}

/** Object schemas with named properties and no word on others get `additionalProperties: false`. */
function closeObjects(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) { schema.forEach(closeObjects); return; }
  const node = schema as Record<string, unknown>;
  if (node.type === 'object' && node.properties && node.additionalProperties === undefined) node.additionalProperties = false;
  for (const value of Object.values(node)) if (value && typeof value === 'object') closeObjects(value);
}

/** The path of the first number that is not finite (Infinity, NaN), or null. */
function nonFiniteAt(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (!value || typeof value !== 'object' || depth > 20) return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = nonFiniteAt(inner, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The path of the first string holding a NUL character, or null. */
function nulCharacterAt(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (!value || typeof value !== 'object' || depth > 20) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return path ? `${path}.${key}` : key;
    const found = nulCharacterAt(inner, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return null;
}

export const NUL_CHARACTER_MESSAGE = 'Text may not contain a NUL character';
export const NOT_A_NUMBER_MESSAGE = 'Please enter a number';

export default fp(async (app) => {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    for (const part of ['params', 'querystring', 'body', 'headers']) bound(schema[part]);
    closeObjects(schema.body);
  });
  app.addHook('preValidation', async (request) => {
    const field = nulCharacterAt(request.params, '') ?? nulCharacterAt(request.query, '') ?? nulCharacterAt(request.body, '');
    if (field !== null) throw badRequest(NUL_CHARACTER_MESSAGE, { [field || 'body']: NUL_CHARACTER_MESSAGE });
  });
  app.addHook('preHandler', async (request) => {
    const field = nonFiniteAt(request.params, '') ?? nonFiniteAt(request.query, '') ?? nonFiniteAt(request.body, '');
    if (field !== null) throw badRequest(NOT_A_NUMBER_MESSAGE, { [field || 'body']: NOT_A_NUMBER_MESSAGE });
  });
}, { name: 'storable-input' });
