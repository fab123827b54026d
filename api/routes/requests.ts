import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DocumentSchema, RequestSchema, type Request } from '../../db/entities';
import {
  CERTIFICATE_TYPES, hasErrors, isFinished, localDay, PRODUCT_NAME, STATUS, validateCredentialingForm,
  type RequestStatus,
} from '../../domain';
import { badRequest, forbidden, methodNotAllowed } from '../errors';
import { currentUser, requireUser } from '../plugins/auth';
import { parseFindQuery, queryFieldsOf } from '../query/feathers-query';
import { errorResponses } from '../schemas/error.schema';
import { FindQuery } from '../schemas/find-query.schema';
import { Page } from '../schemas/page.schema';
import { IdParams } from '../schemas/primitives';
import {
  CreateRequestBody, PatchRequestBody, RequestDetail, RequestListItem, RequestRecord,
} from '../schemas/request.schema';
import type { SessionUser } from '../schemas/session-user.schema';
import { canEditForm, findVisibleRequest, requestForCaller, visibleRequestsFilter } from '../services/request-access';
import { applyFormFields, credentialingFormOf } from '../services/request-form';
import { assignRequestNumber } from '../services/request-numbers';
import { changeStatus, reopenRequest, submitRequest } from '../services/request-workflows';

/** What a list may be queried by: the fields callers see; internal notes only by administrators. */
const ADMIN_QUERY_FIELDS = queryFieldsOf(RequestSchema, Object.keys(RequestRecord.properties));
const { internalNotes: _adminOnly, ...REQUESTER_QUERY_FIELDS } = ADMIN_QUERY_FIELDS;

const tags = ['requests'];

const actorOf = (user: SessionUser) => ({ name: `${user.firstName} ${user.lastName}`.trim(), email: user.email });

/** `api/v1/requests` (spec 2 §7.3). */
const requestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireUser);
  const workflows = { temporal: app.temporal, taskQueue: app.config.taskQueue, answerTimeoutMs: app.config.workflowAnswerTimeoutMs };

  app.get('/requests', {
    schema: {
      tags, summary: 'Requests the caller may see', querystring: FindQuery,
      response: { 200: Page(RequestListItem), ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const params = parseFindQuery(request.query, user.isAdmin ? ADMIN_QUERY_FIELDS : REQUESTER_QUERY_FIELDS);
    const where = { $and: [params.where, visibleRequestsFilter(user)] };
    const [rows, total] = await request.em.findAndCount(RequestSchema, where as never, {
      limit: params.limit, offset: params.skip, orderBy: { ...params.orderBy, id: params.orderBy.id ?? 'desc' } as never, // id breaks ties
      fields: params.fields as never,
    });
    return { total, limit: params.limit, skip: params.skip, data: rows.map((r) => requestForCaller(user, r)) };
  });

  app.get('/requests/:id', {
    schema: {
      tags, summary: 'A request with its documents', params: IdParams,
      response: { 200: RequestDetail, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const found = await findVisibleRequest(request.em, user, request.params.id);
    const documents = await request.em.find(DocumentSchema, { requestId: found.id }, { orderBy: { createdAt: 'asc' } });
    // Discussions and claim history arrive with their own issues; the related lists exist from the start.
    return { ...requestForCaller(user, found), documents, discussions: [], claimHistory: [] };
  });

  app.post('/requests', {
    schema: {
      tags, summary: 'Create a draft', body: CreateRequestBody,
      response: { 201: RequestRecord, ...errorResponses(400, 401, 403) },
    },
  }, async (request, reply) => {
    const user = currentUser(request);
    const { requestType, certificateType } = request.body;
    if (requestType === 'certificate') {
      if (!certificateType || !(CERTIFICATE_TYPES as readonly string[]).includes(certificateType)) {
        throw badRequest('Invalid certificate type', { certificateType: 'The field above is required' });
      }
      if (user.isExternal && certificateType !== 'Clinician') throw forbidden('External requesters may only request Clinician certificates');
    }
    const created = request.em.create(RequestSchema, {
      requestType,
      certificateType: requestType === 'certificate' ? certificateType! : null,
      status: STATUS.draft,
      source: user.isExternal ? 'external' : PRODUCT_NAME,
      employerType: user.isExternal ? 'external' : 'internal',
      requesterId: user.id,
      requesterName: `${user.firstName} ${user.lastName}`.trim(),
      requesterLastName: user.lastName,
      requesterEmail: user.email,
      requesterPhone: user.phone,
      requesterCompany: user.company,
    } as never) as Request;
    applyFormFields(created, request.body);
    await request.em.flush();
    return reply.code(201).send(requestForCaller(user, created));
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
    const user = currentUser(request);
    const found = await findVisibleRequest(request.em, user, request.params.id);
    const { status, verified, internalNotes, version, ...form } = request.body;
    const loadedVersion = found.version; // before this call's own form changes bump it
    const seenVersion = version ?? loadedVersion;
    const current = found.status as RequestStatus;
    if (!user.isAdmin && (verified !== undefined || internalNotes !== undefined)) throw forbidden('Administrators only');
    if (!user.isAdmin && status !== undefined && status !== current && status !== STATUS.submitted) {
      throw forbidden("Only administrators can change a request's status");
    }

    if (Object.keys(form).length > 0) {
      if (!canEditForm(user, found)) throw forbidden('This request can no longer be edited');
      applyFormFields(found, form);
      await request.em.flush();
    }

    const actor = actorOf(user);
    if (status === STATUS.submitted && status !== current && (current === STATUS.draft || current === STATUS.pendingAdditionalInformation)) {
      if (found.requesterId !== user.id && !user.isAdmin) throw forbidden('Only the requester can submit this request');
      if (found.requestType !== 'credentialing') throw badRequest('Certificate requests cannot be submitted until the certificate forms are released');
      const documentCount = await request.em.count(DocumentSchema, { requestId: found.id });
      const errors = validateCredentialingForm(credentialingFormOf(found), {
        isExternal: found.employerType === 'external', today: localDay(new Date()), documentCount,
      });
      if (hasErrors(errors)) throw badRequest('Field validation error.', errors as Record<string, string>);
      const requestNumber = await assignRequestNumber(request.em, found.id);
      await submitRequest(workflows, { ...found, requestNumber, version: loadedVersion }, actor, seenVersion);
    } else if (status !== undefined && status !== current) {
      if (!user.isAdmin) throw forbidden("Only administrators can change a request's status");
      if (!found.requestNumber) throw badRequest(`A request in status "${current}" cannot be changed to "${status}"`);
      const row = { ...found, requestNumber: found.requestNumber, version: loadedVersion };
      if (status === STATUS.draft) await reopenRequest(workflows, row, actor, seenVersion);
      else await changeStatus(workflows, row, { status, verified: verified ?? found.verified, internalNotes, actor }, seenVersion);
    } else if (user.isAdmin && (verified !== undefined || internalNotes !== undefined)) {
      if (isFinished(current) && verified !== undefined && verified !== found.verified) throw badRequest('This request is finished');
      if (verified !== undefined) found.verified = verified;
      if (internalNotes !== undefined) found.internalNotes = internalNotes;
      await request.em.flush();
    }
    const fresh = await request.em.fork().findOneOrFail(RequestSchema, found.id);
    return requestForCaller(user, fresh);
  });

  app.put('/requests/:id', {
    schema: { tags, summary: 'Not supported: use PATCH', params: IdParams, response: errorResponses(401, 405) },
  }, async () => { throw methodNotAllowed('Method not supported for this service: use PATCH'); });

  app.delete('/requests/:id', {
    schema: {
      tags, summary: "Delete the caller's own draft", params: IdParams,
      response: { 200: RequestRecord, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const found = await findVisibleRequest(request.em, user, request.params.id);
    if (found.status !== STATUS.draft) throw badRequest('Only draft requests can be deleted');
    // A reopened request keeps its number and its workflow: it goes back through review, it is not thrown away.
    if (found.requestNumber) throw badRequest('A reopened request cannot be deleted');
    if (found.requesterId !== user.id && !user.isAdmin) throw forbidden('Only the requester can delete this draft');
    const documents = await request.em.find(DocumentSchema, { requestId: found.id });
    const result = requestForCaller(user, found);
    request.em.remove([found, ...documents]);
    await request.em.flush();
    await Promise.all(documents.map((d) => app.files.remove(d.storedName)));
    return result;
  });
};

export default requestRoutes;
