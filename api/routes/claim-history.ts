import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAdmin } from '../plugins/auth';
import { ClaimHistoryRecord, ClaimSearchQuery, ClaimsPage, LinkClaimsBody, RequestIdQuery } from '../../contract/desk.schema';
import { errorResponses } from '../../contract/error.schema';
import { linkClaims, searchClaims, unlinkClaims } from '../../services/requests/claim-history';
import { ClaimHistorySchema } from '../../db/entities';
import { IdParams } from '../../contract/primitives';
import { recordById } from '../../services/requests/record-by-id';

const tags = ['claim-history'];

/** `api/v1/claim-history` (spec 2 §7.6): claim search and the claims linked to a credentialing request. Administrators only. */
const claimHistoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireAdmin);
  app.get('/claim-history', {
    schema: {
      tags, summary: 'Search claims by physician name within the request dates',
      description: 'Names match case-insensitively, combined with `or` (default) or `and`; sorted by last name, first name, report date.',
      querystring: ClaimSearchQuery, response: { 200: ClaimsPage, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => searchClaims(request.em, { ...request.query, limit: request.query.$limit }, app.config.clockPolicy.calendar.timeZone));

  app.get('/claim-history/:id', {
    schema: { tags, summary: 'A claim-history entry linked to a request', params: IdParams, response: { 200: ClaimHistoryRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => recordById(request.em, ClaimHistorySchema, request.params.id));

  app.post('/claim-history', {
    schema: {
      tags, summary: "Replace a request's linked claims",
      description: 'Removes the earlier links and links the chosen claims in one transaction; with no claim, one placeholder entry.',
      body: LinkClaimsBody, response: { 201: Type.Array(ClaimHistoryRecord), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request, reply) => reply.code(201).send(await linkClaims(request.em, request.body.requestId, request.body.claimIds)));

  app.delete('/claim-history', {
    schema: { tags, summary: "Remove a request's links (by requestId)", querystring: RequestIdQuery, response: { 200: Type.Object({ removed: Type.Integer() }), ...errorResponses(400, 401, 403) } },
  }, async (request) => ({ removed: await unlinkClaims(request.em, request.query.requestId) }));
};
export default claimHistoryRoutes;
