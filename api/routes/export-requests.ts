import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createReadStream, existsSync } from 'node:fs';
import { Type } from 'typebox';
import { RequestExportSchema } from '../../db/entities';
import { notFound } from '../errors';
import { currentUser, requireAdmin } from '../plugins/auth';
import { CreateExportBody, ExportRecord } from '../../contract/desk.schema';
import { errorResponses } from '../../contract/error.schema';
import { IdParams } from '../../contract/primitives';
import { exportPath, listExports, startExport } from '../../services/requests/request-export';
import { recordRequestSecurityEvent } from '../security-events';
import { recordById } from '../../services/requests/record-by-id';

const tags = ['export-requests'];

/** `api/v1/export-requests` (spec 2 §7.11): start an xlsx export, list past exports with progress, download. Administrators only. */
const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireAdmin);
  app.post('/export-requests', {
    schema: { tags, summary: 'Start an export (answers at once; the list shows its progress)', body: CreateExportBody, response: { 201: ExportRecord, ...errorResponses(400, 401, 403, 503) } },
  }, async (request, reply) => {
    const user = currentUser(request);
    const row = await startExport(app.orm, app.temporal, app.config.taskQueue, request.body, { name: `${user.firstName} ${user.lastName}`.trim(), userId: user.id }, app.config.clockPolicy.calendar.timeZone);
    await recordRequestSecurityEvent(request, { kind: 'exportStarted', email: user.email, detail: { exportId: row.id, ...request.body } });
    return reply.code(201).send({ ...row, isMockApi: false });
  });
  app.get('/export-requests', {
    schema: { tags, summary: 'Past exports, newest first', response: { 200: Type.Object({ data: Type.Array(ExportRecord) }), ...errorResponses(401, 403) } },
  }, async () => ({ data: await listExports(app.orm) }));
  app.get('/export-requests/:id', {
    schema: { tags, summary: 'One export and its progress', params: IdParams, response: { 200: ExportRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => recordById(request.em, RequestExportSchema, request.params.id));
  app.get('/export-requests/:id/file', {
    schema: { tags, summary: 'Download an export (xlsx)', params: IdParams, response: { 200: Type.Unknown({ description: 'the xlsx file' }), ...errorResponses(401, 403, 404) } },
  }, async (request, reply) => {
    const row = await request.em.findOne(RequestExportSchema, request.params.id);
    if (!row || row.state !== 'done') throw notFound('Export not found');
    const file = exportPath(app.config.dataDir, row.storedName);
    if (!existsSync(file)) throw notFound('The file of this export is no longer on the server');
    reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    reply.header('content-disposition', `attachment; filename="${row.filename}"`);
    return reply.send(createReadStream(file));
  });
};
export default exportRoutes;
