import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser, requireAdmin, requireUser } from '../plugins/auth';
import { AdminApiKeyList, ApiKeyCreateBody, ApiKeyList, ApiKeyRecord, CreatedApiKey } from '../../contract/api-key.schema';
import { errorResponses } from '../../contract/error.schema';
import { IdParams } from '../../contract/primitives';
import { createApiKey, listAllApiKeys, listOwnApiKeys, revokeApiKey } from '../../services/accounts/api-keys';

const tags = ['api-keys'];
const USE = 'Send a key as `Authorization: Bearer coi_…`. A key acts as its account with its scopes only '
  + '(requests:read, requests:write, letters:read); a route its scopes do not cover answers 403, and a key past its '
  + 'calls a minute answers 429 with Retry-After.';

/**
 * `api-keys`: an external account's keys for its organisation's systems (services/accounts/api-keys.ts); an
 * administrator lists every account's keys and revokes any. A key itself may call none of these (api-key-routes.ts).
 */
const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api-keys', {
    onRequest: requireUser,
    schema: { tags, summary: 'Your account\'s API keys', description: USE, response: { 200: ApiKeyList, ...errorResponses(401, 403) } },
  }, async (request) => listOwnApiKeys(request.em, currentUser(request)));

  app.post('/api-keys', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'Create an API key (the key is in this answer only)', description: USE, body: ApiKeyCreateBody,
      response: { 201: CreatedApiKey, ...errorResponses(400, 401, 403, 409) },
    },
  }, async (request, reply) => {
    const created = await createApiKey(request.em, currentUser(request), request.body, request.ip);
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });

  app.delete('/api-keys/:id', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'Revoke an API key (its owner, or an administrator)', params: IdParams,
      response: { 200: ApiKeyRecord, ...errorResponses(401, 403, 404) },
    },
  }, async (request) => revokeApiKey(request.em, currentUser(request), request.params.id, request.ip));

  app.get('/admin/api-keys', {
    onRequest: requireAdmin,
    schema: { tags, summary: 'Every account\'s API keys, with their owner', response: { 200: AdminApiKeyList, ...errorResponses(401, 403) } },
  }, async (request) => listAllApiKeys(request.em));
};

export default apiKeyRoutes;
