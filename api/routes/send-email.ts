import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAdmin } from '../plugins/auth';
import { errorResponses } from '../../contract/error.schema';
import { SendEmailAccepted, SendEmailBody } from '../../contract/send-email.schema';
import { commandContextOf } from '../command-context';
import { sendTemplateEmail } from '../../services/requests/request-commands';

/** `api/v1/send-email` (spec 2 §7.9): an administrator sends a template email for a request. */
const sendEmailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/send-email', {
    onRequest: requireAdmin,
    schema: {
      tags: ['admin'],
      summary: 'Send a template email for a submitted request',
      description: 'Queued on the request workflow, which sends it and writes the audit entry. With `retryOf`, '
        + 'sends the email of that "email failed" entry again (pressing twice sends once).',
      body: SendEmailBody,
      response: { 202: SendEmailAccepted, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request, reply) => {
    const accepted = await sendTemplateEmail(commandContextOf(request), request.body);
    return reply.code(202).send(accepted);
  });
};

export default sendEmailRoutes;
