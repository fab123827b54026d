import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser, requirePasswordChangeUser } from '../plugins/auth';
import { ConfirmationLinkSent, ConfirmationTokenParams, ConfirmationValidity, EmailConfirmed } from '../../contract/email-confirmation.schema';
import { errorResponses } from '../../contract/error.schema';
import { confirmEmail, describeConfirmationLink, resendConfirmationLink } from '../../services/accounts/email-confirmations';

const tags = ['users'];

/**
 * `email-confirmations` (not in the spec): POST sends the signed-in user a new link for the address they
 * still have to prove; GET/PATCH `email-confirmations/{token}` check and use a link, without a sign-in (the link may
 * be opened on another device than the one that asked for it).
 */
const emailConfirmationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const limited = { rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: (request: { ip: string }) => `confirm|${request.ip}` } };

  app.post('/email-confirmations', {
    onRequest: requirePasswordChangeUser,
    schema: {
      tags, summary: 'Send the link again: a new confirmation link for the address still to prove',
      response: { 201: ConfirmationLinkSent, ...errorResponses(400, 401, 429, 503) },
    },
  }, async (request, reply) => reply.code(201).send(
    await resendConfirmationLink({ em: request.em, temporal: app.temporal, config: app.config, ip: request.ip }, currentUser(request).id)));

  app.get('/email-confirmations/:token', {
    config: limited,
    schema: {
      tags, summary: 'Whether a confirmation link is valid', security: [], params: ConfirmationTokenParams,
      response: { 200: ConfirmationValidity, ...errorResponses(429) },
    },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return describeConfirmationLink(request.em, app.config, request.params.token);
  });

  app.patch('/email-confirmations/:token', {
    config: limited,
    schema: {
      tags, summary: 'Confirm an email address with its link (single use)', security: [], params: ConfirmationTokenParams,
      response: { 200: EmailConfirmed, ...errorResponses(400, 409, 429) },
    },
  }, async (request) => {
    const { email } = await confirmEmail({ em: request.em, temporal: app.temporal, config: app.config, ip: request.ip }, request.params.token);
    return { email, confirmed: true };
  });
};

export default emailConfirmationRoutes;
