/**
 * Requests that wake by themselves: a request waiting in Pending New Policy Year returns
 * to review when a policy year covering its dates exists; one waiting in Pending Employment when the directory
 * shows its clinician as active. The lifecycle machine allows the move (event `WAKE`); these rules say when.
 *
 * Only a change of the world made *after* the request started waiting wakes it: an administrator who parks a
 * request while the condition already holds (a future hire already listed as active) is not overruled at once.
 */
import { personalEmployeeId } from './people-directory';
import { STATUS, type RequestStatus } from './request-status';

export type WakeReason = 'policy-year' | 'employment';

/** The status a request waits in for each reason. */
export const WAITING_STATUS: Record<WakeReason, RequestStatus> = {
  'policy-year': STATUS.pendingNewPolicyYear,
  employment: STATUS.pendingEmployment,
};

export const wakeReasonOf = (status: RequestStatus): WakeReason | null =>
  (Object.keys(WAITING_STATUS) as WakeReason[]).find((reason) => WAITING_STATUS[reason] === status) ?? null;

/**
 * The email the administrators' mailbox receives when a request returns to review by itself. Not one of the
 * twelve templates of spec 2 §9.3: a separate entry, seeded and editable like them, ordered after them.
 */
export const REQUEST_RETURNED_TO_REVIEW = 'Request Returned to Review';
export const REQUEST_RETURNED_TO_REVIEW_ORDER = 60; // after the clocks' templates (45, 50, 55: domain/request-clocks.ts)

/** Who the audit trail names for a wake-up: nobody pressed anything. */
export const WAKE_UP_ACTOR = { name: 'COI Automated Review System', email: 'automated-review@coi-portal.local' } as const;

/** Update id of a wake-up: the same request, reason, cause and request version is the same update, applied once. */
export const wakeCommandIdOf = (requestNumber: number, reason: WakeReason, sourceId: number, version: number) =>
  `wake:${requestNumber}:${reason}:${sourceId}:v${version}`;

/** Employment status `A` (spec 2 §9.3: A active, T terminated). */
export const isActiveInDirectory = (person: { employmentStatus?: string | null }) => (person.employmentStatus ?? '').trim().toUpperCase() === 'A';

type DirectoryDate = Date | string | null | undefined;

/** The people a request and the directory can name: an employee id, names, birth date, email. */
interface NamedPerson {
  employeeId?: string | null;
  email?: string | null;
  lastName?: string | null;
  firstName?: string | null;
  birthDate?: DirectoryDate;
}

const norm = (v: string | null | undefined) => (v ?? '').trim().replace(/\s+/g, ' ').replace(/[\u2018\u2019]/g, "'").toLowerCase();
/** Dates travel as calendar days (spec 2 §5): the day is what matches, whatever the hour stored. */
const dayOf = (v: DirectoryDate) => (v ? new Date(v).toISOString().slice(0, 10) : '');

/**
 * Whether a request names this directory person as its clinician. A person listed under a shared IS code is nobody
 * in particular (domain/people-directory.ts) and never matches. A request that carries a personal employee id matches
 * by it alone. A request without one (the clinician was not at the university yet: no id, or an IS code such as
 * 22222) matches the person who now appears under a personal id by the same email, or by the same last and first
 * name with the same birth date: a namesake (same name, another birth date and email) is someone else.
 */
export function namesPerson(request: NamedPerson, person: NamedPerson): boolean {
  const personId = personalEmployeeId(person.employeeId);
  if (!personId) return false;
  const requestId = personalEmployeeId(request.employeeId);
  if (requestId) return norm(requestId) === norm(personId);
  if (norm(request.email) && norm(request.email) === norm(person.email)) return true;
  const sameName = !!norm(request.lastName) && !!norm(request.firstName)
    && norm(request.lastName) === norm(person.lastName) && norm(request.firstName) === norm(person.firstName);
  return sameName && !!dayOf(request.birthDate) && dayOf(request.birthDate) === dayOf(person.birthDate);
}

/** What the audit row says about a wake-up (after `Status changed from "…" to "Submitted"`). */
export function wakeAuditNote(reason: WakeReason, detail: string): string {
  return reason === 'policy-year'
    ? `returned to review by itself: policy year ${detail} now covers the request's dates`
    : `returned to review by itself: the employee directory shows ${detail} as active`;
}
