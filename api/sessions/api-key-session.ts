/**
 * The door's half of API keys: a bearer token shaped `coi_<prefix>_<secret>` is a key, not a session token. It is
 * read here (its row by prefix, the hash compared in constant time), held to its per-key window (PostgreSQL's shared
 * fixed-window counters), to the scopes of the route it calls (api-key-routes.ts), and stands for its owner with
 * administrator rights taken away: keys belong to external accounts only, and an account that became an
 * administrator since does not lend its keys that. Every refusal and (once a minute per key) every use is in the
 * security log (services/accounts/api-keys.ts).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyRequest } from 'fastify';
import { API_KEY_BURST_WINDOW_MS, API_KEY_MESSAGES, type ApiKeyRefusal, type ApiKeyScope } from '../../domain/api-keys';
import type { SessionUser } from '../../contract/session-user.schema';
import {
  apiKeyByPrefix, apiKeyMatches, prefixOfApiKey, recordApiKeyRefusal, recordApiKeyUse, type ApiKeyFacts,
} from '../../services/accounts/api-keys';
import { countHit } from '../../services/limits/rate-limits';
import { ApiError, notAuthenticated } from '../errors';
import { apiKeyScopeOf } from './api-key-routes';
import { sessionOfKeyOwner } from './session-user';

/** What the request carries once a key let it through (`request.apiKey`). */
export interface ApiKeyCaller { id: number; prefix: string; name: string; scopes: ApiKeyScope[] }

const WINDOW_MS = 60_000;

export async function sessionFromApiKey(request: FastifyRequest, token: string): Promise<SessionUser> {
  const { orm, config } = request.server;
  const em = orm.em as unknown as EntityManager; // raw statements on the pool: no fork (plugins/orm-context.ts)
  const route = request.routeOptions.url ?? request.url.split('?')[0];
  const refuse = async (reason: ApiKeyRefusal, key: ApiKeyFacts | null, error: ApiError, ownerEmail: string | null = null, logged = true): Promise<never> => {
    try {
      if (logged) await recordApiKeyRefusal(em, { reason, key, ownerEmail, ip: request.ip, method: request.method, route, status: error.code });
    } catch (err) {
      request.log.error({ err }, 'could not log an API key refusal');
    }
    throw error;
  };

  const prefix = prefixOfApiKey(token);
  const key = prefix ? await apiKeyByPrefix(em, prefix) : null;
  if (!key || !apiKeyMatches(token, key.secretHash)) return refuse('invalid', null, notAuthenticated(API_KEY_MESSAGES.invalid, { reason: 'apiKeyInvalid' }));
  if (key.revoked) return refuse('revoked', key, notAuthenticated(API_KEY_MESSAGES.revoked, { reason: 'apiKeyRevoked' }));

  // Every call counts, the refused ones too: a key past its window is answered 429 until the window ends. Counted
  // before its owner is read, so a script past its limit costs two indexed statements a call and nothing more.
  // The minute's window, then the 2 s one that keeps the minute's pace (a burst of every key at once slows everyone).
  for (const [name, windowMs, max] of [['api-key', WINDOW_MS, config.apiKeyCallsPerMinute], ['api-key-burst', API_KEY_BURST_WINDOW_MS, config.apiKeyCallsPer2Seconds]] as const) {
    const { hits, resetInMs } = await countHit(em, `${name}:${key.id}`, windowMs);
    if (hits > max) {
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      // Logged once a window, at the first call past the limit: the calls after it cost no statement of the log's.
      const first = hits === max + 1;
      return refuse('overLimit', key, new ApiError(429, API_KEY_MESSAGES.tooMany(seconds), { reason: 'apiKeyLimit', retryAfterSeconds: seconds }), null, first);
    }
  }

  let owner: SessionUser | null;
  try {
    owner = await sessionOfKeyOwner(em, key.userId, config);
  } catch (error) {
    return refuse('owner', key, error as ApiError);
  }
  if (!owner || !owner.isExternal) return refuse('owner', key, notAuthenticated(API_KEY_MESSAGES.invalid, { reason: 'apiKeyInvalid' }), owner?.email);

  const scope = apiKeyScopeOf(request.method, request.routeOptions.url);
  if (!scope || !key.scopes.includes(scope)) {
    return refuse('scope', key, new ApiError(403, API_KEY_MESSAGES.scope, { reason: 'apiKeyScope', ...(scope ? { scope } : {}) }), owner.email);
  }

  await recordApiKeyUse(em, key, { email: owner.email, ip: request.ip, method: request.method, route });
  request.apiKey = { id: key.id, prefix: key.prefix, name: key.name, scopes: key.scopes };
  // A key is never an administrator, and is not held to its owner's password page: it is not a person's session.
  return { ...owner, isAdmin: false, mustChangePassword: false, isPswdExpired: false };
}
