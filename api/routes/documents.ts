import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { open, stat } from 'node:fs/promises';
import { Type } from 'typebox';
import { DocumentSchema } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { DocumentFiles } from '../../storage/document-files';
import { ApiError, badRequest, notFound } from '../errors';
import { Refusal } from '../../services/refusals';
import { currentUser, requireUser } from '../plugins/auth';
import { parseFindQuery, queryFieldsOf } from '../query/feathers-query';
import {
  CreateDocumentBody, DocumentFileParams, PatchDocumentBody, DocumentFileResponse, DocumentRecord, UploadResult,
} from '../../contract/document.schema';
import { errorResponses } from '../../contract/error.schema';
import { findQuery } from '../../contract/find-query.schema';
import { Page } from '../../contract/page.schema';
import { IdParams } from '../../contract/primitives';
import { documentRecordOf, editableRequest, patchDocument, recordDocument, removeDocument } from '../../services/documents/documents';
import { findVisibleRequest } from '../../services/requests/request-access';
import { discardUpload, keepUpload, notAcceptedType, receiveUpload, type ReceivedUpload } from '../../services/documents/document-uploads';
import { ALLOWED_UPLOAD_DESCRIPTION, SNIFF_HEAD_BYTES, sniffUploadFile } from '../../services/documents/upload-sniffing';
import { requestRecordById } from '../../services/requests/record-by-id';

const QUERY_FIELDS = queryFieldsOf(DocumentSchema, Object.keys(DocumentRecord.properties));
const DOCUMENTS_DEFAULT_LIMIT = 50; // spec 2 §7.1: "the documents search default limit is 50"
const tags = ['documents'];

/** Stored names carry their request id, so an upload can only be registered on the request it was sent for. */
const storedNameFor = (requestId: number, extension: string) => `r${requestId}-${DocumentFiles.newStoredName(`x.${extension}`)}`;
const belongsTo = (storedName: string, requestId: number) => storedName.startsWith(`r${requestId}-`);

/** What the stored bytes are, read again from disk (the client only hands back a name), as the upload sniffed them. */
async function sniffStored(path: string): Promise<{ mimeType: string; size: number }> {
  const size = (await stat(path).catch(() => { throw badRequest(MESSAGES.selectFile); })).size;
  const handle = await open(path, 'r');
  const head = Buffer.alloc(Math.min(size, SNIFF_HEAD_BYTES));
  await handle.read(head, 0, head.length, 0).finally(() => handle.close());
  const sniffed = await sniffUploadFile(path, head);
  if (!sniffed) throw notAcceptedType();
  return { mimeType: sniffed.mimeType, size };
}

/** `api/v1/upload` and `api/v1/documents` (spec 2 §7.7). */
const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireUser);

  app.post('/upload', {
    schema: {
      tags,
      summary: 'Upload the bytes of a document',
      description: `multipart/form-data with fields \`requestId\` and \`file\` (one file; ${ALLOWED_UPLOAD_DESCRIPTION}, `
        + 'by content). Answers the upload handle `storedName` to pass to POST /documents. 429 past the day\'s upload quota, '
        + 'or (with Retry-After) while the user already has as many uploads in progress as allowed.',
      response: { 201: UploadResult, ...errorResponses(400, 401, 403, 404, 408, 413, 422, 429) },
    },
  }, async (request, reply) => {
    const user = currentUser(request);
    if (!request.isMultipart()) throw badRequest(MESSAGES.selectFile);
    const deps = { sql: request.em, files: app.files, config: app.config };
    let requestId: number | undefined;
    let received: ReceivedUpload | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (received) throw badRequest('Send one file per upload');
          // Who may upload, a place among the user's uploads in progress and the day's quota are settled before a
          // byte of the file is read: the request id must come first (the portal's forms send it first).
          if (!requestId || !Number.isInteger(requestId)) throw badRequest('requestId is required before the file', { requestId: MESSAGES.required });
          await editableRequest(request.em, user, requestId);
          received = await receiveUpload(deps, user, part, request.headers['content-length']).catch((error: unknown) => {
            const retryAfter = error instanceof Refusal ? error.data.retryAfterSeconds : undefined;
            if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
            throw error;
          });
        } else if (part.fieldname === 'requestId') {
          requestId = Number(part.value);
        }
      }
    } catch (error) {
      if (received) await discardUpload(deps, received.slot).catch(() => undefined);
      throw error;
    }
    if (!received) throw badRequest(MESSAGES.selectFile, { file: MESSAGES.selectFile });
    const { storedName, sniffed } = await keepUpload(deps, received, requestId!, (extension) => storedNameFor(requestId!, extension));
    return reply.code(201).send({ storedName, filename: received.filename, size: received.size, mimeType: sniffed.mimeType });
  });

  app.post('/documents', {
    schema: {
      tags, summary: 'Record an uploaded file as a document of the request', body: CreateDocumentBody,
      response: { 201: DocumentRecord, ...errorResponses(400, 401, 403, 404, 409, 422) },
    },
  }, async (request, reply) => {
    const user = currentUser(request);
    const body = request.body;
    const target = await editableRequest(request.em, user, body.requestId);
    if (!belongsTo(body.storedName, target.id)) throw badRequest('This upload belongs to another request');
    const document = await recordDocument(request.em, user, target, body, () => sniffStored(app.files.pathOf(body.storedName)));
    return reply.code(201).send(document);
  });

  app.get('/documents', {
    schema: {
      tags, summary: "A request's documents (requestId is required)",
      querystring: findQuery({ requestId: Type.Unknown({ description: 'the request (required)' }) }),
      response: { 200: Page(DocumentRecord), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const params = parseFindQuery(request.query, QUERY_FIELDS, DOCUMENTS_DEFAULT_LIMIT);
    const requestId = params.where.requestId;
    if (typeof requestId !== 'number') throw badRequest('requestId is required', { requestId: MESSAGES.required });
    await findVisibleRequest(request.em, user, requestId);
    const [data, total] = await request.em.findAndCount(DocumentSchema, params.where as never, {
      limit: params.limit, offset: params.skip,
      orderBy: (Object.keys(params.orderBy).length ? params.orderBy : { createdAt: 'asc' }) as never,
    });
    return { total, limit: params.limit, skip: params.skip, data: data.map(documentRecordOf) };
  });

  app.get('/documents/:id', {
    schema: { tags, summary: 'A document (of a request the caller may see)', params: IdParams, response: { 200: DocumentRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => documentRecordOf(await requestRecordById(request.em, currentUser(request), DocumentSchema, request.params.id)));

  app.get('/documents/:requestId/:name', {
    schema: {
      tags, summary: 'Download a document', params: DocumentFileParams,
      response: { 200: DocumentFileResponse, ...errorResponses(400, 401, 403, 404, 410) },
    },
  }, async (request, reply) => {
    const user = currentUser(request);
    const { requestId, name } = request.params;
    await findVisibleRequest(request.em, user, requestId);
    const document = await request.em.findOne(DocumentSchema, { requestId, name });
    if (!document) throw notFound('Document not found');
    if (document.legacyId) throw new ApiError(410, 'Legacy documents are unavailable');
    reply.header('content-type', document.mimeType);
    reply.header('content-length', document.size);
    reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(document.name)}`);
    reply.header('x-content-type-options', 'nosniff');
    return reply.send(app.files.read(document.storedName));
  });

  app.patch('/documents/:id', {
    schema: {
      tags, summary: 'Rename or redescribe a document, or set its attach-to-approval-email flag (administrators)',
      params: IdParams, body: PatchDocumentBody,
      response: { 200: DocumentRecord, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => patchDocument(request.em, currentUser(request), request.params.id, request.body));

  app.delete('/documents/:id', {
    schema: {
      tags, summary: 'Remove a document', params: IdParams,
      response: { 200: DocumentRecord, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => removeDocument(request.em, currentUser(request), request.params.id, (storedName) => app.files.remove(storedName)));
};

export default documentRoutes;
