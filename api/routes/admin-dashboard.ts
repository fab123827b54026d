import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RequestSchema } from '../../db/entities';
import { DECIDED_STATUSES } from '../../domain';
import { currentUser, requireAdmin } from '../plugins/auth';
import { AdminDashboard } from '../schemas/admin-dashboard.schema';
import { errorResponses } from '../schemas/error.schema';
import { requestForCaller } from '../services/request-access';

/** `api/v1/admin-dashboard` (spec 2 §7.4): the work queue and submission counts by submitDate. */
const adminDashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/admin-dashboard', {
    onRequest: requireAdmin,
    schema: {
      tags: ['admin'], summary: 'Work queue and submission counts',
      response: { 200: AdminDashboard, ...errorResponses(401, 403) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const now = new Date();
    const startOfDay = new Date(now.getFullYear(), now.getMonth(), now.getDate());
    const startOfMonth = new Date(now.getFullYear(), now.getMonth(), 1);
    const startOfYear = new Date(now.getFullYear(), 0, 1);
    const em = request.em;
    const [adminRequests, staleLetters, today, monthToDate, yearToDate] = await Promise.all([
      // Spec 2 §7.4: the queue leaves out Approved, Approved with Letter of Intent and Denied (Closed stays listed).
      em.fork().find(RequestSchema, { status: { $nin: [...DECIDED_STATUSES] } }, { orderBy: { updatedAt: 'desc', id: 'desc' }, limit: 1000 }),
      // Issue #10 item 5: decided requests leave the queue, so their stale letters are listed on their own.
      em.fork().find(RequestSchema, { letterStaleSince: { $ne: null } }, { orderBy: { letterStaleSince: 'asc', id: 'asc' }, limit: 1000 }),
      em.fork().count(RequestSchema, { submitDate: { $gte: startOfDay } }),
      em.fork().count(RequestSchema, { submitDate: { $gte: startOfMonth } }),
      em.fork().count(RequestSchema, { submitDate: { $gte: startOfYear } }),
    ]);
    return {
      adminRequests: adminRequests.map((r) => requestForCaller(user, r)),
      staleLetters: staleLetters.map((r) => requestForCaller(user, r)),
      requestCounts: { today, monthToDate, yearToDate },
    };
  });
};

export default adminDashboardRoutes;
