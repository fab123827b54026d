import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FaqType } from '../../domain';
import { currentUser, requireAdmin, requireUser } from '../plugins/auth';
import { CreateFaqBody, FaqQuery, FaqRecord, UpdateFaqBody } from '../../contract/desk.schema';
import { errorResponses } from '../../contract/error.schema';
import { IdParams } from '../../contract/primitives';
import { createFaq, deleteFaq, listFaqs, updateFaq } from '../../services/desk/faqs';
import { FaqSchema } from '../../db/entities';
import { recordById } from '../../services/requests/record-by-id';

const tags = ['faqs'];

/** `api/v1/faqs` (spec 2 §7.11): everyone reads; administrators add, edit (atomically) and delete. */
const faqRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/faqs', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'FAQs of one type, by order', querystring: FaqQuery,
      description: 'Requesters always get the Requester set; administrators the type they ask for (default Admin).',
      response: { 200: Type.Object({ total: Type.Integer(), limit: Type.Integer(), skip: Type.Integer(), data: Type.Array(FaqRecord) }), ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const type: FaqType = user.isAdmin ? (request.query.type ?? 'Admin') : 'Requester';
    const data = await listFaqs(request.em, type);
    return { total: data.length, limit: data.length, skip: 0, data };
  });

  app.get('/faqs/:id', {
    onRequest: requireUser,
    schema: { tags, summary: 'A FAQ (requesters: of the Requester set only)', params: IdParams, response: { 200: FaqRecord, ...errorResponses(401, 404) } },
  }, async (request) => recordById(request.em, FaqSchema, request.params.id, currentUser(request).isAdmin ? {} : { type: 'Requester' }));

  app.post('/faqs', {
    onRequest: requireAdmin,
    schema: { tags, summary: 'Add a FAQ (order defaults to count + 1; later ones move down)', body: CreateFaqBody, response: { 201: FaqRecord, ...errorResponses(400, 401, 403) } },
  }, async (request, reply) => reply.code(201).send(await createFaq(request.em, request.body)));

  for (const method of ['put', 'patch'] as const) {
    app[method]('/faqs/:id', {
      onRequest: requireAdmin,
      schema: { tags, summary: 'Edit a FAQ: question, answer and order in one transaction', params: IdParams, body: UpdateFaqBody, response: { 200: FaqRecord, ...errorResponses(400, 401, 403, 404) } },
    }, async (request) => updateFaq(request.em, request.params.id, request.body));
  }

  app.delete('/faqs/:id', {
    onRequest: requireAdmin,
    schema: { tags, summary: 'Delete a FAQ (later ones move up)', params: IdParams, response: { 200: FaqRecord, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => deleteFaq(request.em, request.params.id));
};
export default faqRoutes;
