/**
 * What a call with an API key may reach: the routes below, each under one scope (domain/api-keys.ts). Every other
 * route that needs a sign-in answers 403 to a key, whatever its scopes: the key-management routes themselves, the
 * profile, the live stream, discussions and every administrators' route. Keyed as Fastify names a route
 * (`METHOD /api/v1/path/:param`), so the check is one lookup; the access matrix proves the table route by route.
 */
import type { ApiKeyScope } from '../../domain/api-keys';

export const API_KEY_ROUTES: Readonly<Record<string, ApiKeyScope>> = {
  'GET /api/v1/requests': 'requests:read',
  'GET /api/v1/requests/:id': 'requests:read',
  'POST /api/v1/requests': 'requests:write',
  'PATCH /api/v1/requests/:id': 'requests:write', // fill in and submit (`status: Submitted`)
  'GET /api/v1/requests/:id/certificates': 'letters:read',
  'GET /api/v1/documents': 'letters:read',
  'GET /api/v1/documents/:id': 'letters:read',
  'GET /api/v1/documents/:requestId/:name': 'letters:read', // the download
};

/** The scope a route needs of a key; undefined when no key may call it. */
export const apiKeyScopeOf = (method: string, routeUrl: string | undefined): ApiKeyScope | undefined =>
  routeUrl ? API_KEY_ROUTES[`${method.toUpperCase()} ${routeUrl}`] : undefined;
