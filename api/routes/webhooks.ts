import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { currentUser, requireUser } from '../plugins/auth';
import { errorResponses } from '../../contract/error.schema';
import { IdParams } from '../../contract/primitives';
import {
  WebhookDeliveriesQuery, WebhookDeliveryPage, WebhookEndpointCreated, WebhookEndpointInput, WebhookEndpointList, WebhookSecretRotated,
} from '../../contract/webhook.schema';
import {
  createWebhookEndpoint, deleteWebhookEndpoint, listWebhookDeliveries, listWebhookEndpoints, resendWebhookDelivery, rotateWebhookSecret,
} from '../../services/webhooks/webhook-endpoints';

const tags = ['webhooks'];

/**
 * `api/v1/webhook-endpoints`, `api/v1/webhook-deliveries`: an external account's signed webhooks (Standard Webhooks).
 * Owners manage their endpoints; administrators list every endpoint and its deliveries.
 */
const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/webhook-endpoints', {
    onRequest: requireUser,
    schema: { tags, summary: 'Your webhook endpoints (an administrator: every account\'s)', response: { 200: WebhookEndpointList, ...errorResponses(401, 403) } },
  }, async (request) => listWebhookEndpoints(request.em, currentUser(request)));

  app.post('/webhook-endpoints', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'Register an endpoint: its signing secret is in the answer, and only there', body: WebhookEndpointInput,
      description: 'The URL must be https:// and resolve to public addresses only (never loopback, private, link-local or reserved); it is checked again at each delivery.',
      response: { 201: WebhookEndpointCreated, ...errorResponses(400, 401, 403, 409) },
    },
  }, async (request, reply) => reply.code(201).send(await createWebhookEndpoint(request.em, currentUser(request), request.body, app.config.webhooks)));

  app.delete('/webhook-endpoints/:id', {
    onRequest: requireUser,
    schema: { tags, summary: 'Remove an endpoint and its deliveries', params: IdParams, response: { 200: Type.Object({ id: Type.Integer() }), ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => {
    await deleteWebhookEndpoint(request.em, currentUser(request), request.params.id);
    return { id: request.params.id };
  });

  app.post('/webhook-endpoints/:id/rotate-secret', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'A new signing secret; the previous one keeps signing too for 24 hours', params: IdParams,
      response: { 200: WebhookSecretRotated, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => rotateWebhookSecret(request.em, currentUser(request), request.params.id));

  app.get('/webhook-endpoints/:id/deliveries', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'An endpoint\'s deliveries, newest first, with every attempt', params: IdParams, querystring: WebhookDeliveriesQuery,
      response: { 200: WebhookDeliveryPage, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => listWebhookDeliveries(request.em, currentUser(request), request.params.id, request.query));

  app.post('/webhook-deliveries/:id/resend', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'Send a delivery again (a disabled endpoint is enabled again)', params: IdParams,
      response: { 201: Type.Object({ id: Type.Integer() }), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request, reply) => reply.code(201).send(await resendWebhookDelivery(request.em, currentUser(request), request.params.id)));
};

export default webhookRoutes;
