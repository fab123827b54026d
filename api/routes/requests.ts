import { discussionsOf } from '../../services/discussions/discussions';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ClaimHistorySchema, RequestSchema } from '../../db/entities';
import { documentsOf } from '../../services/documents/documents';
import { methodNotAllowed } from '../errors';
import { currentUser, requireUser } from '../plugins/auth';
import { parseFindQuery, queryFieldsOf } from '../query/feathers-query';
import { findRequestPage, requestTypeLabelCondition } from '../../services/lists/request-list';
import { errorResponses } from '../../contract/error.schema';
import { RequestFindQuery } from '../../contract/find-query.schema';
import { Page } from '../../contract/page.schema';
import { IdParams } from '../../contract/primitives';
import {
  CreateRequestBody, PatchRequestBody, RequestDetail, RequestListItem, RequestRecord,
} from '../../contract/request.schema';
import { commandContextOf } from '../command-context';
import { findVisibleRequest, recordForCaller, requestForCaller, visibleOwner } from '../../services/requests/request-access';
import { createDraft, deleteDraft, patchRequest } from '../../services/requests/request-commands';

/** What a list may be queried by: the fields callers see; internal notes and directory facts only by administrators. */
const ADMIN_QUERY_FIELDS = queryFieldsOf(RequestSchema, Object.keys(RequestRecord.properties));
const {
  internalNotes: _notes, hireDate: _hired, employmentStatus: _status, terminationDate: _ended, ...REQUESTER_QUERY_FIELDS
} = ADMIN_QUERY_FIELDS;

const tags = ['requests'];

/** `api/v1/requests` (spec 2 §7.3). The commands live in services/requests/request-commands.ts. */
const requestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireUser);

  app.get('/requests', {
    schema: {
      tags, summary: 'Requests the caller may see', querystring: RequestFindQuery,
      response: { 200: Page(RequestListItem), ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const { requestTypeLabel, ...query } = request.query as Record<string, unknown>;
    const params = parseFindQuery(query, user.isAdmin ? ADMIN_QUERY_FIELDS : REQUESTER_QUERY_FIELDS);
    const { rows, total } = await findRequestPage(app.orm.em, { // raw statements: no fork (plugins/orm-context.ts)
      where: { $and: [params.where, requestTypeLabelCondition(requestTypeLabel)] }, owner: visibleOwner(user),
      orderBy: { ...params.orderBy, id: params.orderBy.id ?? 'desc' }, // id breaks ties
      limit: params.limit, skip: params.skip, fields: params.fields,
    });
    return { total, limit: params.limit, skip: params.skip, data: rows.map((r) => recordForCaller(user, r)) };
  });

  app.get('/requests/:id', {
    schema: {
      tags, summary: 'A request with its documents', params: IdParams,
      response: { 200: RequestDetail, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const found = await findVisibleRequest(request.em, user, request.params.id);
    const documents = await documentsOf(request.em, found.id);
    // Claim history is the administrators' work on a credentialing request.
    const claimHistory = user.isAdmin
      ? await request.em.find(ClaimHistorySchema, { requestId: found.id }, { orderBy: { reportDate: 'asc', id: 'asc' } })
      : [];
    return { ...requestForCaller(user, found), documents, discussions: await discussionsOf(request.em, found.id), claimHistory };
  });

  app.post('/requests', {
    schema: {
      tags, summary: 'Create a draft', body: CreateRequestBody,
      response: { 201: RequestRecord, ...errorResponses(400, 401, 403) },
    },
  }, async (request, reply) => {
    const created = await createDraft(commandContextOf(request), request.body);
    return reply.code(201).send(requestForCaller(currentUser(request), created));
  });

  app.patch('/requests/:id', {
    schema: {
      tags,
      summary: 'Save form fields, submit, change status, reopen',
      description: 'Form fields save the form; `status: Submitted` submits it; administrators change `status` '
        + '(`Draft` reopens), `verified` and `internalNotes`. Status changes go through the request workflow.',
      params: IdParams, body: PatchRequestBody,
      response: { 200: RequestRecord, ...errorResponses(400, 401, 403, 404, 409, 503) },
    },
  }, async (request) => {
    const updated = await patchRequest(commandContextOf(request), request.params.id, request.body);
    return requestForCaller(currentUser(request), updated);
  });

  app.put('/requests/:id', {
    schema: { tags, summary: 'Not supported: use PATCH', params: IdParams, response: errorResponses(401, 405) },
  }, async () => { throw methodNotAllowed('Method not supported for this service: use PATCH'); });

  app.delete('/requests/:id', {
    schema: {
      tags, summary: "Delete the caller's own draft", params: IdParams,
      response: { 200: RequestRecord, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => deleteDraft(commandContextOf(request), request.params.id));
};

export default requestRoutes;
