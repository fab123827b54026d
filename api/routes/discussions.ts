import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { currentUser, requireUser } from '../plugins/auth';
import { CreateDiscussionBody, DiscussionRecord, PatchDiscussionBody } from '../../contract/discussion.schema';
import { errorResponses } from '../../contract/error.schema';
import { Id, IdParams } from '../../contract/primitives';
import { commandContextOf } from '../command-context';
import { createDiscussion, deleteDiscussion, discussionById, discussionsOf } from '../../services/discussions/discussions';
import { findVisibleRequest } from '../../services/requests/request-access';

const tags = ['discussions'];

/** `api/v1/discussions` (spec 2 §7.8): messages in threads on a request. */
const discussionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/discussions', {
    onRequest: requireUser,
    schema: {
      tags, summary: "A request's messages, oldest first (deleted ones are not listed)",
      querystring: Type.Object({ requestId: Id }),
      response: { 200: Type.Array(DiscussionRecord), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const found = await findVisibleRequest(request.em, currentUser(request), request.query.requestId);
    return discussionsOf(request.em, found.id);
  });

  app.get('/discussions/:id', {
    onRequest: requireUser,
    schema: { tags, summary: "A message (of a request the caller may see; deleted ones are not shown)", params: IdParams, response: { 200: DiscussionRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => discussionById(request.em, currentUser(request), request.params.id));

  app.post('/discussions', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'Post a message: a new topic, or a reply with the thread id',
      description: 'Closed on completed or closed requests. The request workflow emails Request Discussion to the other side '
        + '(requester and recipients when an administrator writes; the risk-management mailbox when a requester writes) and audits it.',
      body: CreateDiscussionBody,
      response: { 201: DiscussionRecord, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request, reply) => reply.code(201).send(await createDiscussion(commandContextOf(request), request.body)));

  app.patch('/discussions/:id', {
    onRequest: requireUser,
    schema: {
      tags, summary: 'Delete a message (administrators only): sets deletedAt and keeps the row',
      params: IdParams, body: PatchDiscussionBody,
      response: { 200: DiscussionRecord, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => deleteDiscussion(request.em, currentUser(request), request.params.id, request.body));
};

export default discussionRoutes;
