import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ClaimDataSchema } from '../../db/entities';
import { CS_STARS_MAX_BYTES, CS_STARS_PAGE_SIZE, DESK_MESSAGES } from '../../domain';
import { ApiError, badRequest } from '../errors';
import { requireAdmin } from '../plugins/auth';
import { parseFindQuery, queryFieldsOf } from '../query/feathers-query';
import { ClaimDataRecord, ClaimsPage, CsStarsUploadResult } from '../../contract/desk.schema';
import { IdParams } from '../../contract/primitives';
import { errorResponses } from '../../contract/error.schema';
import { findQuery } from '../../contract/find-query.schema';
import { importClaimsCsv } from '../../services/desk/cs-stars-import';
import { findClaimsPage } from '../../services/lists/claims-page';
import { recordRequestSecurityEvent } from '../security-events';
import { recordById } from '../../services/requests/record-by-id';

const tags = ['cs-stars'];
const QUERY_FIELDS = queryFieldsOf(ClaimDataSchema, [
  'id', 'exportDate', 'physicianLastName', 'physicianFirstName', 'involvement', 'claimNumber', 'type', 'status', 'outcome', 'claimDate', 'reportDate',
]);
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel', 'text/x-csv']);

async function page(em: EntityManager, query: Record<string, unknown>) {
  const params = parseFindQuery(query, QUERY_FIELDS, CS_STARS_PAGE_SIZE);
  const limit = Math.min(Number(query.$limit ?? CS_STARS_PAGE_SIZE), CS_STARS_PAGE_SIZE);
  const orderBy: Record<string, 'asc' | 'desc'> = Object.keys(params.orderBy).length ? { ...params.orderBy, id: 'desc' } : { reportDate: 'desc', id: 'desc' };
  const { data, total } = await findClaimsPage(em, { where: params.where, orderBy, limit, skip: params.skip });
  return { total, limit, skip: params.skip, data };
}

/** `api/v1/cs-stars` (spec 2 §7.11): the claims table and the CSV upload. Administrators only. */
const csStarsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireAdmin);
  app.get('/cs-stars', {
    schema: { tags, summary: 'Claims, by report date newest first ($limit at most 10,000)', querystring: findQuery(), response: { 200: ClaimsPage, ...errorResponses(400, 401, 403) } },
  }, async (request) => page(request.em, request.query as Record<string, unknown>));

  app.get('/cs-stars/:id', {
    schema: { tags, summary: 'A claim of the CS-STARS data', params: IdParams, response: { 200: ClaimDataRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => recordById(request.em, ClaimDataSchema, request.params.id));

  app.post('/cs-stars', {
    schema: {
      tags, summary: 'Upload a CS-STARS CSV export',
      description: 'multipart/form-data with `file` (text/csv) and optional `limit`. A file with any bad line is refused (400) '
        + 'with `data.lines` [{ line, reasons }] and nothing of it is kept; the same export uploaded again updates its claims.',
      response: { 201: CsStarsUploadResult, ...errorResponses(400, 401, 403, 413) },
    },
  }, async (request, reply) => {
    if (!request.isMultipart()) throw badRequest(DESK_MESSAGES.csvRequired, { file: DESK_MESSAGES.csvRequired });
    const file = await request.file({ limits: { fileSize: CS_STARS_MAX_BYTES, files: 1 } });
    if (!file) throw badRequest(DESK_MESSAGES.csvRequired, { file: DESK_MESSAGES.csvRequired });
    const limitField = file.fields.limit as { value?: string } | undefined;
    const isCsv = CSV_TYPES.has(file.mimetype) && /\.csv$/i.test(file.filename || '.csv');
    if (!isCsv) {
      file.file.resume();
      throw badRequest(DESK_MESSAGES.csvRequired, { file: DESK_MESSAGES.csvRequired });
    }
    let result;
    try {
      result = await importClaimsCsv(app.config.databaseUrl, file.file);
    } finally {
      file.file.resume();
    }
    if (file.file.truncated) throw new ApiError(413, 'The file is larger than the upload limit; nothing was loaded.');
    if (result.rows === 0) throw badRequest(DESK_MESSAGES.csvRequired, { file: 'The file holds no claims' });
    await recordRequestSecurityEvent(request, { kind: 'csStarsUploaded', email: request.sessionUser?.email, detail: { filename: file.filename, rows: result.rows } });
    const listed = await page(request.em, { $limit: limitField?.value ?? CS_STARS_PAGE_SIZE });
    return reply.code(201).send({ ...result, ...listed });
  });
};
export default csStarsRoutes;
