import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { stat } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { DocumentSchema, RequestSchema, type Request } from '../../db/entities';
import { cleanText, isFinished, MESSAGES, type RequestStatus } from '../../domain';
import { DocumentFiles } from '../../storage/document-files';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../errors';
import { currentUser, requireUser } from '../plugins/auth';
import type { SessionUser } from '../plugins/app-context';
import { parseFindQuery, queryFieldsOf } from '../query/feathers-query';
import { assertCanSee, canEditForm } from '../services/request-access';
import { ALLOWED_UPLOAD_DESCRIPTION, sniffUpload } from '../services/upload-sniffing';

const FIELDS = queryFieldsOf(DocumentSchema, ['id', 'requestId', 'name', 'description', 'isAttachment', 'createdAt', 'updatedAt', 'mimeType', 'size']);
const DOCUMENTS_DEFAULT_LIMIT = 50; // spec 2 §7.1: "the documents search default limit is 50"

/** Stored names carry their request id, so an upload can only be registered on the request it was sent for. */
const storedNameFor = (requestId: number, extension: string) => `r${requestId}-${DocumentFiles.newStoredName(`x.${extension}`)}`;
const belongsTo = (storedName: string, requestId: number) => storedName.startsWith(`r${requestId}-`);

async function requestFor(em: EntityManager, user: SessionUser, requestId: number): Promise<Request> {
  const request = await em.findOne(RequestSchema, requestId);
  if (!request) throw notFound(`No record found for id '${requestId}'`);
  assertCanSee(user, request);
  return request;
}

/** Documents may change while the requester (or an admin) may edit the request; never once it is finished. */
function assertDocumentsEditable(user: SessionUser, request: Request) {
  if (isFinished(request.status as RequestStatus) || !canEditForm(user, request)) {
    throw forbidden('Documents of this request can no longer be changed');
  }
}

/** `api/v1/upload` and `api/v1/documents` (spec 2 §7.7). */
export default async function documentRoutes(app: FastifyInstance) {
  app.addHook('preHandler', requireUser);

  app.post('/upload', async (request, reply) => {
    const user = currentUser(request);
    if (!request.isMultipart()) throw badRequest(MESSAGES.selectFile);
    let requestId: number | undefined;
    let file: { bytes: Buffer; filename: string } | undefined;
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (file) throw badRequest('Send one file per upload');
        // toBuffer() throws once the file passes the size limit (413), so a truncated file is never kept.
        file = { bytes: await part.toBuffer(), filename: part.filename };
      } else if (part.fieldname === 'requestId') {
        requestId = Number(part.value);
      }
    }
    if (!file || file.bytes.length === 0) throw badRequest(MESSAGES.selectFile, { file: MESSAGES.selectFile });
    if (!requestId || !Number.isInteger(requestId)) throw badRequest('requestId is required', { requestId: MESSAGES.required });
    const target = await requestFor(request.em, user, requestId);
    assertDocumentsEditable(user, target);
    const sniffed = await sniffUpload(file.bytes);
    if (!sniffed) throw new ApiError(422, `This file type is not accepted. Upload ${ALLOWED_UPLOAD_DESCRIPTION}.`);
    const storedName = storedNameFor(requestId, sniffed.extension);
    await app.files.write(storedName, file.bytes);
    reply.code(201);
    return { storedName, filename: file.filename, size: file.bytes.length, mimeType: sniffed.mimeType };
  });

  app.post<{ Body: { requestId: number; filename: string; description?: string; storedName: string; isAttachment?: boolean } }>('/documents', {
    schema: {
      body: {
        type: 'object', required: ['requestId', 'filename', 'storedName'], additionalProperties: false,
        properties: {
          requestId: { type: 'integer', minimum: 1 },
          filename: { type: 'string', minLength: 1, maxLength: 200 },
          description: { type: ['string', 'null'], maxLength: 200 },
          storedName: { type: 'string', pattern: '^r[0-9]+-[a-f0-9-]{36}\\.[a-z0-9]{1,8}$' },
          isAttachment: { type: 'boolean' },
        },
      },
    },
  }, async (request, reply) => {
    const user = currentUser(request);
    const body = request.body;
    const target = await requestFor(request.em, user, body.requestId);
    assertDocumentsEditable(user, target);
    if (!belongsTo(body.storedName, target.id)) throw badRequest('This upload belongs to another request');
    if (body.isAttachment && !user.isAdmin) throw forbidden('Only administrators can attach documents to the approval email');
    const name = cleanText(body.filename);
    if (!name) throw badRequest(MESSAGES.required, { filename: MESSAGES.required });
    if (await request.em.count(DocumentSchema, { requestId: target.id, name })) {
      throw conflict(MESSAGES.documentExists);
    }
    const path = app.files.pathOf(body.storedName);
    const size = (await stat(path).catch(() => { throw badRequest(MESSAGES.selectFile); })).size;
    const handle = await open(path, 'r');
    const head = Buffer.alloc(Math.min(size, 16384));
    await handle.read(head, 0, head.length, 0).finally(() => handle.close());
    const sniffed = await sniffUpload(head);
    if (!sniffed) throw new ApiError(422, `This file type is not accepted. Upload ${ALLOWED_UPLOAD_DESCRIPTION}.`);
    const document = request.em.create(DocumentSchema, {
      requestId: target.id, name, description: cleanText(body.description) ?? null, storedName: body.storedName,
      mimeType: sniffed.mimeType, size, isAttachment: !!body.isAttachment, uploadedBy: `${user.firstName} ${user.lastName}`.trim(),
    } as never);
    await request.em.flush();
    reply.code(201);
    return document;
  });

  app.get<{ Querystring: Record<string, unknown> }>('/documents', async (request) => {
    const user = currentUser(request);
    const params = parseFindQuery(request.query, FIELDS, DOCUMENTS_DEFAULT_LIMIT);
    const requestId = params.where.requestId;
    if (typeof requestId !== 'number') throw badRequest('requestId is required', { requestId: MESSAGES.required });
    await requestFor(request.em, user, requestId);
    const [data, total] = await request.em.findAndCount(DocumentSchema, params.where as never, {
      limit: params.limit, offset: params.skip, orderBy: (Object.keys(params.orderBy).length ? params.orderBy : { createdAt: 'asc' }) as never,
    });
    return { total, limit: params.limit, skip: params.skip, data };
  });

  app.get<{ Params: { requestId: number; name: string } }>('/documents/:requestId/:name', {
    schema: { params: { type: 'object', properties: { requestId: { type: 'integer' }, name: { type: 'string' } } } },
  }, async (request, reply) => {
    const user = currentUser(request);
    await requestFor(request.em, user, request.params.requestId);
    const document = await request.em.findOne(DocumentSchema, { requestId: request.params.requestId, name: request.params.name });
    if (!document) throw notFound('Document not found');
    if (document.legacyId) throw new ApiError(410, 'Legacy documents are unavailable');
    reply.header('content-type', document.mimeType);
    reply.header('content-length', document.size);
    reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(document.name)}`);
    reply.header('x-content-type-options', 'nosniff');
    return reply.send(app.files.read(document.storedName));
  });

  app.delete<{ Params: { id: number } }>('/documents/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, async (request) => {
    const user = currentUser(request);
    const document = await request.em.findOne(DocumentSchema, request.params.id);
    if (!document) throw notFound('Document not found');
    const target = await requestFor(request.em, user, document.requestId);
    assertDocumentsEditable(user, target);
    request.em.remove(document);
    await request.em.flush();
    await app.files.remove(document.storedName);
    return document;
  });
}
