import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../contract/error.schema';
import { Reports, REPORTS_PATH, REPORTS_XLSX_PATH, ReportsQuery } from '../../contract/reports.schema';
import { requireAdmin } from '../plugins/auth';
import { reportsOf } from '../services/reports';
import { reportsFileName, reportsWorkbook } from '../services/reports-workbook';

/** `api/v1/reports` and its xlsx download: the administrators' reports (domain/reports.ts). */
const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['admin'];
  app.get(REPORTS_PATH, {
    onRequest: requireAdmin,
    schema: { tags, summary: 'Reports: volumes, turnaround, time in status, backlog, missed deadlines, top requesters', querystring: ReportsQuery, response: { 200: Reports, ...errorResponses(400, 401, 403) } },
  }, async (request) => reportsOf(request.em, request.query, app.config.clockPolicy.calendar));

  app.get(REPORTS_XLSX_PATH, {
    onRequest: requireAdmin,
    schema: { tags, summary: 'The reports as an xlsx workbook, one sheet per chart', querystring: ReportsQuery, response: { 200: Type.Unknown({ description: 'the xlsx file' }), ...errorResponses(400, 401, 403) } },
  }, async (request, reply) => {
    const reports = await reportsOf(request.em, request.query, app.config.clockPolicy.calendar);
    reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    reply.header('content-disposition', `attachment; filename="${reportsFileName(reports)}"`);
    return reply.send(await reportsWorkbook(reports));
  });
};
export default reportRoutes;
