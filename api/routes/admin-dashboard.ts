import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DASHBOARD_FIELDS, DECIDED_STATUSES } from '../../domain';
import { currentUser, requireAdmin } from '../plugins/auth';
import { countRequests, findRequestRows, requestTypeLabelCondition } from '../../services/lists/request-list';
import { AdminDashboard, AdminDashboardQuery, DASHBOARD_DEFAULT_LIMIT } from '../../contract/admin-dashboard.schema';
import { errorResponses } from '../../contract/error.schema';
import { queueCounts, submissionCounts } from '../../services/lists/request-counts';
import { countEmailProblems } from '../../services/desk/email-problems';
import { firstCertificateChecklistOf } from '../../services/desk/first-certificate-checklist';
import { recordForCaller } from '../../services/requests/request-access';

/**
 * `api/v1/admin-dashboard` (spec 2 §7.4): one page of the work queue and of the stale letters, and every count the
 * dashboard shows, all computed by the database (nothing over `$limit` rows per list).
 */
const adminDashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/admin-dashboard', {
    onRequest: requireAdmin,
    schema: {
      tags: ['admin'], summary: 'Work queue and submission counts', querystring: AdminDashboardQuery,
      response: { 200: AdminDashboard, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const limit = request.query.$limit ?? DASHBOARD_DEFAULT_LIMIT;
    // Spec 2 §7.4: the queue leaves out Approved, Approved with Letter of Intent and Denied (Draft and Closed stay listed).
    const where = { $and: [notDecided, requestTypeLabelCondition(request.query.requestTypeLabel)] };
    // Decided requests leave the queue, so their stale letters are listed on their own.
    const stale = { letterStaleSince: { $ne: null } };
    // Raw statements, run together on the pool: no entity manager of their own is needed (plugins/orm-context.ts).
    const em = app.orm.em;
    const [adminRequests, counts, staleLetters, staleLettersTotal, requestCounts, emailProblems, beforeFirstCertificate] = await Promise.all([
      findRequestRows(em, { where, orderBy: { updatedAt: 'desc', id: 'desc' }, limit, skip: 0, fields }),
      queueCounts(em, where),
      findRequestRows(em, { where: stale, orderBy: { letterStaleSince: 'asc', id: 'asc' }, limit, skip: 0, fields }),
      countRequests(em, stale),
      submissionCounts(em, new Date(), app.config.clockPolicy.calendar.timeZone),
      countEmailProblems(em),
      firstCertificateChecklistOf(em, app.config),
    ]);
    return {
      requestCounts,
      adminRequests: adminRequests.map((r) => recordForCaller(user, r)),
      queueCounts: counts,
      staleLetters: staleLetters.map((r) => recordForCaller(user, r)),
      staleLettersTotal,
      emailProblems,
      beforeFirstCertificate,
    };
  });
};

/** The dashboard's lists carry the fields its tables show (domain DASHBOARD_FIELDS), not whole requests. */
const fields = ['id', ...DASHBOARD_FIELDS];
const notDecided = { status: { $nin: [...DECIDED_STATUSES] } };

export default adminDashboardRoutes;
