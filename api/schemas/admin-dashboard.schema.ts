/** `GET /admin-dashboard` (spec 2 §7.4). */
import { Type } from 'typebox';
import { RequestRecord } from './request.schema';

export const AdminDashboard = Type.Object({
  adminRequests: Type.Array(RequestRecord, { description: 'requests not yet finished, newest update first' }),
  requestCounts: Type.Object({
    today: Type.Integer({ minimum: 0 }),
    monthToDate: Type.Integer({ minimum: 0 }),
    yearToDate: Type.Integer({ minimum: 0 }),
  }, { description: 'submissions by submit date' }),
});
