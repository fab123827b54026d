/** `GET /admin-dashboard` (spec 2 §7.4). */
import { Type } from 'typebox';
import { RequestRecord } from './request.schema';

export const AdminDashboard = Type.Object({
  adminRequests: Type.Array(RequestRecord, { description: 'requests not yet finished, newest update first' }),
  staleLetters: Type.Array(RequestRecord, { description: 'requests whose issued letter may be out of date (a CS-STARS upload changed their claims), oldest flag first' }),
  requestCounts: Type.Object({
    today: Type.Integer({ minimum: 0 }),
    monthToDate: Type.Integer({ minimum: 0 }),
    yearToDate: Type.Integer({ minimum: 0 }),
  }, { description: 'submissions by submit date' }),
});
