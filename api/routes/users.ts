import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { methodNotAllowed } from '../errors';
import { currentUser, requireAdmin, requireUser } from '../plugins/auth';
import { errorResponses } from '../../contract/error.schema';
import { ExternalUserList, ExternalUserRecord, RegistrantSearchQuery, UserFindQuery, UserPatchBody } from '../../contract/external-user.schema';
import { Page } from '../../contract/page.schema';
import { IdParams } from '../../contract/primitives';
import { findExternalUsers, getExternalUser, patchExternalUser, searchRegistrants } from '../../services/accounts/external-users';

const tags = ['admin'];

/** `search-registrants` and `users` for administrators (spec 2 §7.11). The password hash never leaves the server. */
const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search-registrants', {
    onRequest: requireAdmin,
    schema: {
      tags, summary: 'Search external users (at least one parameter)', querystring: RegistrantSearchQuery,
      response: { 200: ExternalUserList, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => searchRegistrants(request.em, request.query));

  app.get('/users', {
    onRequest: requireAdmin,
    schema: {
      tags, summary: 'External users, by name (filters optional; the password is never included)', querystring: UserFindQuery,
      response: { 200: Page(ExternalUserRecord), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => findExternalUsers(request.em, request.query));

  app.get('/users/:id', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'An external user (administrators, or the user themself)', params: IdParams,
      response: { 200: ExternalUserRecord, ...errorResponses(401, 403, 404) },
    },
  }, async (request) => getExternalUser(request.em, currentUser(request), request.params.id));

  app.patch('/users/:id', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'Edit Profile / Edit External Requester; administrators also deactivate or reactivate',
      params: IdParams, body: UserPatchBody, response: { 200: ExternalUserRecord, ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
    },
  }, async (request) => patchExternalUser(
    { em: request.em, temporal: app.temporal, config: app.config, ip: request.ip }, currentUser(request), request.params.id, request.body));

  app.put('/users/:id', {
    onRequest: requireAdmin,
    schema: { tags, summary: 'Not supported (use PATCH)', params: IdParams, response: errorResponses(401, 403, 405) },
  }, async () => { throw methodNotAllowed(); });
};

export default userRoutes;
