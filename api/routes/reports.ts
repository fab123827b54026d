import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Type } from 'typebox';
import { errorResponses } from '../../contract/error.schema';
import { Reports, REPORTS_PATH, REPORTS_XLSX_PATH, ReportsQuery } from '../../contract/reports.schema';
import { requireAdmin } from '../plugins/auth';
import { ensureOfficeCalendar } from '../../services/desk/office-calendar';
import { reportsOf } from '../../services/desk/reports';
import { reportsFileName, reportsWorkbook } from '../../services/desk/reports-workbook';

/** `api/v1/reports` and its xlsx download: the administrators' reports (domain/reports.ts). */
const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['admin'];
  const calendar = app.config.clockPolicy.calendar;
  // The calendar comes from this process's configuration, fixed while it runs: the table is checked against it once
  // (again after a failed check), not before every report.
  let calendarReady: Promise<void> | undefined;
  const reports = async (em: EntityManager, query: ReportsQuery) => {
    calendarReady ??= ensureOfficeCalendar(app.orm.em.fork(), calendar).catch((error: unknown) => { calendarReady = undefined; throw error; });
    await calendarReady;
    return reportsOf(em, query, calendar);
  };
  app.get(REPORTS_PATH, {
    onRequest: requireAdmin,
    schema: { tags, summary: 'Reports: volumes, turnaround, time in status, backlog, missed deadlines, top requesters', querystring: ReportsQuery, response: { 200: Reports, ...errorResponses(400, 401, 403) } },
  }, async (request) => reports(request.em, request.query));

  app.get(REPORTS_XLSX_PATH, {
    onRequest: requireAdmin,
    schema: { tags, summary: 'The reports as an xlsx workbook, one sheet per chart', querystring: ReportsQuery, response: { 200: Type.Unknown({ description: 'the xlsx file' }), ...errorResponses(400, 401, 403) } },
  }, async (request, reply) => {
    const figures = await reports(request.em, request.query);
    reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    reply.header('content-disposition', `attachment; filename="${reportsFileName(figures)}"`);
    return reply.send(await reportsWorkbook(figures));
  });
};
export default reportRoutes;
