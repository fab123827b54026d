import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAdmin } from '../plugins/auth';
import { EmailProblemsPage, EmailProblemsQuery } from '../../contract/email-problems.schema';
import { errorResponses } from '../../contract/error.schema';
import { emailProblemsPage } from '../../services/desk/email-problems';

/** `api/v1/email-problems`: failed and long-delayed emails and letters across requests. */
const emailProblemsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/email-problems', {
    onRequest: requireAdmin,
    schema: {
      tags: ['admin'], summary: 'Emails and letters that failed or are long delayed, newest first', querystring: EmailProblemsQuery,
      description: 'A failed email is sent again with POST /send-email and its `retryOf`; it then leaves the list.',
      response: { 200: EmailProblemsPage, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => emailProblemsPage(request.em, request.query));
};
export default emailProblemsRoutes;
