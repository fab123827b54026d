/** `GET /admin-dashboard` (spec 2 §7.4): lists come in pages, counts are computed by the database. */
import { Type } from 'typebox';
import { ALL_STATUSES, CHECKLIST_ITEM_IDS, REQUEST_TYPE } from '../domain';
import { RequestTypeLabelParam } from './find-query.schema';
import { StringEnum } from './primitives';
import { RequestListItem } from './request.schema';

/** The dashboard's page size when `$limit` is not given, and the most it answers. */
export const DASHBOARD_DEFAULT_LIMIT = 15;
const DASHBOARD_MAX_LIMIT = 50;

export const AdminDashboardQuery = Type.Object({
  $limit: Type.Optional(Type.Integer({ minimum: 1, maximum: DASHBOARD_MAX_LIMIT, default: DASHBOARD_DEFAULT_LIMIT, description: 'rows of each list' })),
  requestTypeLabel: RequestTypeLabelParam,
}, { additionalProperties: false });

export const AdminDashboard = Type.Object({
  requestCounts: Type.Object({
    today: Type.Integer({ minimum: 0 }),
    monthToDate: Type.Integer({ minimum: 0 }),
    yearToDate: Type.Integer({ minimum: 0 }),
  }, { description: 'submissions by submit date (never filtered)' }),
  adminRequests: Type.Array(RequestListItem, {
    description: 'the work queue: requests not Approved, Approved with Letter of Intent or Denied, of the request type label if given, newest update first, at most $limit',
  }),
  queueCounts: Type.Array(Type.Object({
    requestType: StringEnum(Object.values(REQUEST_TYPE)),
    status: StringEnum(ALL_STATUSES),
    count: Type.Integer({ minimum: 1 }),
  }), { description: 'how many requests of the work queue (after the label filter) there are of each request type and status; none listed for zero' }),
  staleLetters: Type.Array(RequestListItem, {
    description: 'requests whose issued letter may be out of date (a CS-STARS upload changed their claims), oldest flag first, at most $limit',
  }),
  staleLettersTotal: Type.Integer({ minimum: 0, description: 'how many requests are flagged in all' }),
  emailProblems: Type.Integer({ minimum: 0, description: 'emails and letters that failed or are long delayed (GET /email-problems lists them)' }),
  beforeFirstCertificate: Type.Object({
    complete: Type.Boolean({ description: 'every item done: the dashboard no longer shows the list' }),
    items: Type.Array(Type.Object({
      id: StringEnum(CHECKLIST_ITEM_IDS),
      label: Type.String(),
      done: Type.Boolean(),
      detail: Type.String({ description: 'what is on record (the policy year in force, the setting\'s value), or what is missing and why it matters' }),
    })),
  }, { description: 'what the office must put in place before the first certificate (domain/first-certificate-checklist.ts)' }),
});
