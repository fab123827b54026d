/**
 * Requests that wake by themselves (issue #10 items 2 and 3): a request waiting in Pending New Policy Year returns
 * to review when a policy year covering its dates exists; one waiting in Pending Employment when the directory
 * shows its clinician as active. The lifecycle machine allows the move (event `WAKE`); these rules say when.
 *
 * Only a change of the world made *after* the request started waiting wakes it: an administrator who parks a
 * request while the condition already holds (a future hire already listed as active) is not overruled at once.
 */
import { RENTAL_AUTO_TYPE } from './reference-lists';
import { STATUS, type RequestStatus } from './request-status';

export const WAKE_REASONS = ['policy-year', 'employment'] as const;
export type WakeReason = (typeof WAKE_REASONS)[number];

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
export const REQUEST_RETURNED_TO_REVIEW_ORDER = 45;

/** Who the audit trail names for a wake-up: nobody pressed anything. */
export const WAKE_UP_ACTOR = { name: 'COI Automated Review System', email: 'automated-review@coi-portal.local' } as const;

/** Update id of a wake-up: the same request, reason, cause and request version is the same update, applied once. */
export const wakeCommandIdOf = (requestNumber: number, reason: WakeReason, sourceId: number, version: number) =>
  `wake:${requestNumber}:${reason}:${sourceId}:v${version}`;

const day = (value: Date | string | null | undefined) =>
  value ? (typeof value === 'string' ? value : value.toISOString()).slice(0, 10) : null;

export interface CoveredPeriodFields {
  requestType: string;
  certificateType?: string | null;
  autoType?: string | null;
  dateFrom?: Date | string | null;
  dateTo?: Date | string | null;
  eventStartDate?: Date | string | null;
  eventEndDate?: Date | string | null;
  rentalStartDate?: Date | string | null;
  rentalEndDate?: Date | string | null;
}

/**
 * The calendar days (yyyy-mm-dd) whose policy years a request's document shows: the credentialing dates; for
 * certificates the clinician/provider dates, the event dates or the rental dates; else the day it is issued.
 */
export function coveredPeriod(r: CoveredPeriodFields, issuedOn: string): { from: string; to: string } {
  const pair = (a: Date | string | null | undefined, b: Date | string | null | undefined) => {
    const from = day(a);
    return from ? { from, to: day(b) ?? from } : null;
  };
  const today = { from: issuedOn.slice(0, 10), to: issuedOn.slice(0, 10) };
  if (r.requestType === 'credentialing') return pair(r.dateFrom, r.dateTo) ?? today;
  if (r.certificateType === 'Clinician' || r.certificateType === 'Provider') return pair(r.dateFrom, r.dateTo) ?? today;
  if (r.certificateType === 'Event') return pair(r.eventStartDate, r.eventEndDate) ?? today;
  if (r.autoType === RENTAL_AUTO_TYPE) return pair(r.rentalStartDate, r.rentalEndDate) ?? today;
  return today;
}

const nextDay = (d: string) => new Date(Date.parse(`${d}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** True when every day from `from` to `to` lies in some policy year (years may be given in any order). */
export function periodCovered(years: ReadonlyArray<{ startDate: Date | string; endDate: Date | string }>, from: string, to: string): boolean {
  const spans = years.map((y) => ({ start: day(y.startDate)!, end: day(y.endDate)! })).sort((a, b) => a.start.localeCompare(b.start));
  let uncovered = from; // the first day not yet known to be covered
  for (const span of spans) {
    if (span.start > uncovered) break;
    if (span.end >= uncovered) uncovered = nextDay(span.end);
    if (uncovered > to) return true;
  }
  return uncovered > to;
}

/** Employment status `A` (spec 2 §9.3: A active, T terminated). */
export const isActiveInDirectory = (person: { employmentStatus?: string | null }) => (person.employmentStatus ?? '').trim().toUpperCase() === 'A';

/**
 * Whether a request names this directory person as its clinician: by employee id; a request without an employee
 * id (the person was not in the directory yet) by email.
 */
export function namesPerson(request: { employeeId?: string | null; email?: string | null }, person: { employeeId: string; email?: string | null }): boolean {
  const norm = (v: string | null | undefined) => (v ?? '').trim().toLowerCase();
  if (norm(request.employeeId)) return norm(request.employeeId) === norm(person.employeeId);
  return !!norm(request.email) && norm(request.email) === norm(person.email);
}

/** What the audit row says about a wake-up (after `Status changed from "…" to "Submitted"`). */
export function wakeAuditNote(reason: WakeReason, detail: string): string {
  return reason === 'policy-year'
    ? `returned to review by itself: policy year ${detail} now covers the request's dates`
    : `returned to review by itself: the employee directory shows ${detail} as active`;
}
