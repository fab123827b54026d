/**
 * Shapes of the API's answers, derived from the route schemas in contract/ (docs/API.md): one description of each
 * payload, so a schema change that the UI does not follow fails `npm run typecheck`. `import type` only: the browser
 * bundle carries no schema code.
 */
import type { AdminDashboard } from '../../../contract/admin-dashboard.schema';
import type { ActivityRecord as ActivitySchema } from '../../../contract/activity.schema';
import type { AuthenticationResult } from '../../../contract/authentication.schema';
import type { ClaimHistoryRecord } from '../../../contract/desk.schema';
import type { DiscussionRecord } from '../../../contract/discussion.schema';
import type { DocumentRecord as DocumentSchema } from '../../../contract/document.schema';
import type { RequestRecord as RequestSchema } from '../../../contract/request.schema';
import type { SessionUserRecord } from '../../../contract/session-user.schema';
import type { Wire } from '../../../contract/wire';
import type { CertificateType, RequestStatus, RequestType } from '../../../domain';

export type User = Wire<typeof SessionUserRecord>;
export type AuthResult = Wire<typeof AuthenticationResult>;

/** A Feathers-style page (contract/page.schema.ts). */
export interface Paginated<T> { total: number; limit: number; skip: number; data: T[] }

export type DocumentRecord = Wire<typeof DocumentSchema>;

/**
 * A request. The schema sends `requestType`, `certificateType` and `status` as plain strings (their OpenAPI text
 * stays as it is); the server only ever writes domain values there, so the UI narrows them to the domain's unions.
 * The form fields of every kind come typed from their declarations (domain/request-kinds.ts). The related lists come
 * with `GET /requests/:id` only (contract RequestDetail).
 */
export type RequestRecord = Omit<Wire<typeof RequestSchema>, 'requestType' | 'certificateType' | 'status'> & {
  requestType: RequestType;
  certificateType?: CertificateType | null;
  status: RequestStatus;
  documents?: DocumentRecord[];
  discussions?: Wire<typeof DiscussionRecord>[];
  claimHistory?: Wire<typeof ClaimHistoryRecord>[];
};

type Dashboard = Wire<typeof AdminDashboard>;
export type RequestCounts = Dashboard['requestCounts'];
/** One row of the admin queue's GROUP BY (after the request-type filter); statuses with no request are left out. */
export type QueueCount = Dashboard['queueCounts'][number];
/** GET /admin-dashboard: counts computed by the database, and at most `$limit` rows per list. */
export type AdminDashboardData = Omit<Dashboard, 'adminRequests' | 'staleLetters'> & {
  adminRequests: RequestRecord[];
  staleLetters: RequestRecord[];
};

export type ActivityRecord = Wire<typeof ActivitySchema>;

/** Lists come paginated (`{ total, limit, skip, data }`); accept a bare array too. */
export const listData = <T>(result: Paginated<T> | T[]): T[] => (Array.isArray(result) ? result : result.data);
