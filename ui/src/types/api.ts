import type { ClaimLink } from '../features/desk/desk-api';
/** Shapes of the API's answers (docs/API.md). */
import type { CertificateType, DocumentOrigin, RequestStatus, RequestType } from '../../../domain';

export interface User {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  middleInitial?: string | null;
  phone?: string | null;
  company?: string | null;
  affiliation?: string | null;
  personType?: string | null;
  isAdmin: boolean;
  isExternal: boolean;
  /** The user proved they own `email` (issue #16); until then nothing is granted by it. */
  emailConfirmed?: boolean;
  /** An address change waiting for its confirmation link. */
  pendingEmail?: string | null;
  mustChangePassword?: boolean;
  isPswdExpired?: boolean;
  lastLogin?: string | null;
}

export interface AuthResult {
  accessToken: string;
  authentication?: { strategy: string };
  user: User;
}

export interface Paginated<T> {
  total: number;
  limit: number;
  skip: number;
  data: T[];
}

export interface DocumentRecord {
  id: number;
  requestId: number;
  name: string;
  filename?: string;
  description?: string | null;
  storedName?: string;
  isAttachment?: boolean;
  legacyId?: string | null;
  /** who added it: a requester removes only what a requester added (domain mayRemoveDocument) */
  origin?: DocumentOrigin;
  uploadedBy?: string | null;
  createdAt: string;
}

export interface RequestRecord {
  id: number;
  requestNumber: number | null;
  requestType: RequestType;
  certificateType?: CertificateType | null;
  autoType?: string | null;
  vehicleIdNumber?: string | null;
  status: RequestStatus;
  submitDate?: string | null;
  completedDate?: string | null;
  requesterId?: number;
  requesterName?: string | null;
  requesterEmail?: string | null;
  requesterPhone?: string | null;
  requesterCompany?: string | null;
  employerType?: string | null;
  verified?: boolean;
  /** claim history: the signed release's date (`yyyy-mm-dd`) the administrator recorded */
  signedReleaseDate?: string | null;
  internalNotes?: string | null;
  /** administrators only: set when a CS-STARS upload may have made the issued claim-history letter out of date */
  letterStaleSince?: string | null;
  /** administrators only: the directory's facts for the request's employee id when it was saved */
  hireDate?: string | null;
  employmentStatus?: string | null;
  terminationDate?: string | null;
  lastName?: string | null;
  firstName?: string | null;
  middleInitial?: string | null;
  altName?: string | null;
  email?: string | null;
  birthDate?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  providerType?: string | null;
  reason?: string | null;
  licensingState?: string | null;
  facilityName?: string | null;
  recipientEmail?: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * Optimistic-lock version. Status commands send back the version the page last saw, so a page left open while
   * the request changed gets 409 instead of overwriting (absent from servers that do not send it yet).
   */
  version?: number;
  documents?: DocumentRecord[];
  discussions?: unknown[];
  claimHistory?: ClaimLink[];
  personRole?: string | null;
  clonedFromId?: number | null;
  /** the other form fields of every kind (domain/request-kinds.ts declares them) */
  [field: string]: unknown;
}

export interface RequestCounts {
  today: number;
  monthToDate: number;
  yearToDate: number;
}

/** One row of the admin queue's GROUP BY (after the request-type filter); statuses with no request are left out. */
export interface QueueCount {
  requestType: RequestType;
  status: RequestStatus;
  count: number;
}

/** GET /admin-dashboard: counts computed by the database, and at most `$limit` rows per list. */
export interface AdminDashboardData {
  /** the newest page of the queue (the dashboard pages each group with GET /requests instead) */
  adminRequests: RequestRecord[];
  queueCounts: QueueCount[];
  /** the oldest-flagged page of the requests whose issued letter may be out of date, and how many there are */
  staleLetters: RequestRecord[];
  staleLettersTotal: number;
  /** emails and letters that failed or are long delayed (the Emails Not Sent page lists them) */
  emailProblems: number;
  requestCounts: RequestCounts;
}

export interface ActivityRecord {
  id: number;
  date: string;
  activityType: string;
  activityText: string;
  performedBy: string;
  recipients?: string | string[] | null;
  channel?: string | null;
  requestId?: number;
  /** The queued side effect an 'Email Failed' row is about; such rows offer Send again. */
  effectId?: number | null;
}

/** Lists come paginated (`{ total, limit, skip, data }`); accept a bare array too. */
export const listData = <T>(result: Paginated<T> | T[]): T[] => (Array.isArray(result) ? result : result.data);
