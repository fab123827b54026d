import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAdmin } from '../plugins/auth';
import { errorResponses } from '../../contract/error.schema';
import { SecurityLogPage, SecurityLogQuery } from '../../contract/security-log.schema';
import { securityLogPage } from '../../services/desk/security-log-page';

/** `api/v1/security-log`: the security log, paged and filtered. Administrators only. */
const securityLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/security-log', {
    onRequest: requireAdmin,
    schema: {
      tags: ['security-log'], summary: 'The security log, newest first', querystring: SecurityLogQuery,
      response: { 200: SecurityLogPage, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => securityLogPage(request.em, request.query, app.config.clockPolicy.calendar.timeZone));
};
export default securityLogRoutes;
