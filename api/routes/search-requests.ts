import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAdmin } from '../plugins/auth';
import { SearchQuery, SearchResult } from '../../contract/desk.schema';
import { errorResponses } from '../../contract/error.schema';
import { searchRequests } from '../../services/requests/admin-search';

/** `api/v1/search-requests` (spec 2 §7.5): Search Submission History, administrators only. */
const searchRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search-requests', {
    onRequest: requireAdmin,
    schema: {
      tags: ['admin'], summary: 'Search submitted requests',
      description: 'Only the filled parameters; at least one besides limit (400 "Additional search parameters are needed.").',
      querystring: SearchQuery, response: { 200: SearchResult, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => searchRequests(app.orm.em, request.query, app.config.clockPolicy.calendar.timeZone));
};
export default searchRequestRoutes;
