import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ROSTER_MAX_BYTES, ROSTER_MESSAGES } from '../../domain';
import { errorResponses } from '../../contract/error.schema';
import {
  RosterKindSchema, RosterList, RosterPageQuery, RosterParams, RosterRecord, RosterRowBody, RosterRowParams, RosterRowRecord, RosterTemplateQuery,
} from '../../contract/roster.schema';
import { DocumentFileResponse } from '../../contract/document.schema';
import { editRosterRow, listRosters, readRoster, submitAllValid, uploadRoster } from '../../services/rosters/rosters';
import { rosterTemplate } from '../../services/rosters/roster-file';
import { commandContextOf } from '../command-context';
import { ApiError, badRequest } from '../errors';
import { requireUser } from '../plugins/auth';

const tags = ['rosters'];

/**
 * `api/v1/rosters`: requests uploaded in bulk. A requester downloads a kind's template, uploads a filled one, fixes
 * rows in place and submits all valid rows; the roster is its uploader's (administrators may read any).
 */
const rosterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireUser);

  app.get('/roster-templates', {
    schema: {
      tags, summary: 'The template of a request type: its form\'s columns (labels as headers) and one example row',
      querystring: RosterTemplateQuery, response: { 200: DocumentFileResponse, ...errorResponses(400, 401, 403) },
    },
  }, async (request, reply) => {
    const template = await rosterTemplate(request.query.kind, request.query.format ?? 'xlsx');
    reply.header('content-type', template.contentType);
    reply.header('content-disposition', `attachment; filename="${template.fileName}"`);
    reply.header('x-content-type-options', 'nosniff');
    return reply.send(template.body);
  });

  app.get('/rosters', {
    schema: { tags, summary: 'The caller\'s rosters, newest first', response: { 200: RosterList, ...errorResponses(401, 403) } },
  }, async (request) => ({ data: await listRosters(commandContextOf(request)) }));

  app.post('/rosters', {
    schema: {
      tags, summary: 'Upload a roster (multipart `file`: .xlsx or UTF-8 CSV made from the template)',
      description: `At most ${ROSTER_MAX_BYTES / 1048576} MB and 500 rows. A file with wrong columns, formulas, another encoding, no rows `
        + 'or too many rows is refused (400, one message) and creates nothing; otherwise every row is checked by the form\'s rules, '
        + 'valid rows become drafts (within the open-drafts quota) and invalid ones are listed with their errors.',
      querystring: Type.Object({ kind: RosterKindSchema }, { additionalProperties: false }),
      response: { 201: RosterRecord, ...errorResponses(400, 401, 403, 413, 422) },
    },
  }, async (request, reply) => {
    if (!request.isMultipart()) throw badRequest(ROSTER_MESSAGES.fileRequired, { file: ROSTER_MESSAGES.fileRequired });
    const file = await request.file({ limits: { fileSize: ROSTER_MAX_BYTES, files: 1 } });
    if (!file) throw badRequest(ROSTER_MESSAGES.fileRequired, { file: ROSTER_MESSAGES.fileRequired });
    let bytes: Buffer;
    try {
      bytes = await file.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, ROSTER_MESSAGES.tooLarge);
      throw error;
    }
    if (file.file.truncated) throw new ApiError(413, ROSTER_MESSAGES.tooLarge);
    const roster = await uploadRoster(commandContextOf(request), { kind: request.query.kind, fileName: file.filename || 'roster', bytes });
    return reply.code(201).send(roster);
  });

  app.get('/rosters/:id', {
    schema: {
      tags, summary: 'A roster: its counts by state and a page of its rows', params: RosterParams, querystring: RosterPageQuery,
      response: { 200: RosterRecord, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => readRoster(commandContextOf(request), request.params.id, {
    skip: request.query.$skip, limit: request.query.$limit, status: request.query.status,
  }));

  app.patch('/rosters/:id/rows/:rowId', {
    schema: {
      tags, summary: 'Fix a row in place: its cells checked again; a valid row becomes a draft (or its draft takes the values)',
      params: RosterRowParams, body: RosterRowBody, response: { 200: RosterRowRecord, ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (request) => editRosterRow(commandContextOf(request), request.params.id, request.params.rowId, request.body.values));

  app.post('/rosters/:id/submit', {
    schema: {
      tags, summary: 'Submit all valid rows, each its own request workflow; read the roster again for progress',
      params: RosterParams, response: { 202: RosterRecord, ...errorResponses(401, 403, 404) },
    },
  }, async (request, reply) => {
    const log = app.log.child({ rosterId: request.params.id });
    const roster = await submitAllValid(commandContextOf(request), request.params.id, (error) => log.error({ err: error }, 'roster row not submitted'));
    return reply.code(202).send(roster);
  });
};
export default rosterRoutes;
