/**
 * The administrators' reports: what each figure means, defined once. The API computes the figures in PostgreSQL
 * (services/desk/reports.ts) by these definitions; the page and the download show them with these readings.
 *
 * - A request's history is its audit trail: every `Submission` and `Status Change` row names the status it entered
 *   and when. Time is counted in business days of the clocks' calendar (domain/business-calendar.ts): office hours
 *   on work days that are not holidays, one business day = one full span of office hours.
 * - Received: the request's FIRST submission (a resubmission after Pending Additional Information or a reopening is
 *   not a new request).
 * - Completed: the request's status now is a finished one (Approved, Approved with Letter of Intent, Denied, Closed);
 *   it counts once, in the period it entered that final status. A request reopened and not finished again is not
 *   completed (its earlier finish was undone); one finished again counts at its last finish.
 * - Turnaround: business days from the first submission to that final status (reopenings included: the requester
 *   waited the whole time).
 * - Kind: the request's kind now (the dashboard's "Filter By Request Type" option). A kind changed along the way
 *   counts the request once, under the kind it was finished as, in every chart.
 * - Periods and date ranges are days of the office's time zone; a period is an ISO week (Monday first) or a month.
 * - Issued instantly: of the certificates completed as Approved in the range, those an instant-certificate rule issued
 *   (an `issued` decision on the request; one a person reopened and approved again stays the rule's), against the rest,
 *   which people decided. Their turnaround is measured as above, and also as time elapsed (what the requester waited).
 */
import { addDays, daysBetween } from './business-calendar';
import { REQUEST_TYPE_FILTERS } from './reference-lists';
import { STATUS, type RequestStatus } from './request-status';

export const REPORT_PERIODS = ['week', 'month'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];
export const DEFAULT_REPORT_PERIOD: ReportPeriod = 'month';

/** The kinds a report is split by and may be filtered to: the dashboard's request type filter options. */
export const REPORT_KINDS = REQUEST_TYPE_FILTERS;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The kinds that are certificates (what a rule may issue): every kind but the claim-history letter's. */
export const CERTIFICATE_REPORT_KINDS: readonly ReportKind[] = REPORT_KINDS.filter((k) => k.startsWith('COI Request: '));
/** The final status that counts as a certificate issued (a Letter of Intent is not a certificate; no rule issues one). */
export const ISSUED_CERTIFICATE_STATUS: RequestStatus = STATUS.approved;

/** Longest date range a report covers (two years and a day: "last year against this year" fits). */
const REPORT_MAX_RANGE_DAYS = 732;

/** The days a report may cover. */
const REPORT_FIRST_DAY = '2000-01-03';
const REPORT_LAST_DAY = '2060-12-30';
/**
 * The days of the office calendar the database builds for the reports (`office_calendar_days`, db/sql-functions.ts):
 * every day a report covers, and the day after the last, where the range of a report on it ends (office midnight).
 */
export const OFFICE_CALENDAR_DAYS = { first: REPORT_FIRST_DAY, last: addDays(REPORT_LAST_DAY, 1) } as const;

export const WAITING_ON = ['office', 'requester'] as const;
type WaitingOn = (typeof WAITING_ON)[number];

/**
 * Who a request waits on in each status, for "where the time goes". Finished statuses wait on nobody (the clock
 * stops). The rule follows the clocks (domain/request-clocks.ts): the office's escalation clock runs in Submitted;
 * the requester's reminders run in Pending Additional Information.
 * - Submitted: the office has to review it.
 * - Pending New Policy Year: the office has to enter the next policy year (domain/wake-ups.ts wakes the request
 *   when it does); nothing the requester can do.
 * - Pending Additional Information: the requester has to answer.
 * - Pending Employment: the clinician the requester named has to start (the directory shows them active).
 * - Pending Off-Campus Authorization (OCA)/Contract: the requester's side has to bring the authorization or contract.
 * - Draft (after a reopening; time before the first submission is never counted): the requester has to resubmit.
 */
export const STATUS_WAITS_ON: Readonly<Record<RequestStatus, WaitingOn | null>> = {
  [STATUS.draft]: 'requester',
  [STATUS.submitted]: 'office',
  [STATUS.pendingAdditionalInformation]: 'requester',
  [STATUS.pendingEmployment]: 'requester',
  [STATUS.pendingNewPolicyYear]: 'office',
  [STATUS.pendingOca]: 'requester',
  [STATUS.approved]: null,
  [STATUS.approvedWithLetterOfIntent]: null,
  [STATUS.denied]: null,
  [STATUS.closed]: null,
};

/** Statuses a request spends time in, in the order the report lists them. */
export const TIMED_STATUSES = (Object.keys(STATUS_WAITS_ON) as RequestStatus[]).filter((s) => STATUS_WAITS_ON[s] !== null);

/** The backlog: requests submitted and not finished (a draft, even a reopened one, is the requester's, not the office's queue). */
export const BACKLOG_STATUSES: readonly RequestStatus[] = TIMED_STATUSES.filter((s) => s !== STATUS.draft);

/**
 * Age bands of the backlog: business days since the first submission, lower bound included, upper excluded. The
 * bands follow the clocks: escalation after 3, reminders after 5 and 10, automatic close after 20.
 */
export const BACKLOG_AGE_BANDS = [
  { key: 'under-1', label: 'Under 1 business day', from: 0, to: 1 },
  { key: '1-3', label: '1 to 3 business days', from: 1, to: 3 },
  { key: '3-5', label: '3 to 5 business days', from: 3, to: 5 },
  { key: '5-10', label: '5 to 10 business days', from: 5, to: 10 },
  { key: '10-20', label: '10 to 20 business days', from: 10, to: 20 },
  { key: '20-plus', label: '20 business days or more', from: 20, to: null },
] as const satisfies ReadonlyArray<{ key: string; label: string; from: number; to: number | null }>;
export type BacklogAgeBand = (typeof BACKLOG_AGE_BANDS)[number]['key'];
export const BACKLOG_AGE_BAND_KEYS = BACKLOG_AGE_BANDS.map((b) => b.key) as BacklogAgeBand[];

/** How many of the oldest open requests the backlog lists, and how many requesters each top list names. */
export const BACKLOG_OLDEST_LIMIT = 10;
export const TOP_REQUESTERS_LIMIT = 10;

/**
 * Who asks. Company: the requester's company as on the request, for requests by external requesters. Department:
 * for requests by the university's own people, the owning department a vehicle request names, else the unit the
 * requester's account gives (the company field of an internal account). Blank names are grouped as "(not given)".
 */
export const NOT_GIVEN_NAME = '(not given)';

/** The first day of the week (ISO: Monday) or month a `yyyy-mm-dd` falls in. */
function reportPeriodStart(day: string, period: ReportPeriod): string {
  if (period === 'month') return `${day.slice(0, 7)}-01`;
  const [y, m, d] = day.split('-').map(Number);
  const isoWeekDay = ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1;
  return addDays(day, 1 - isoWeekDay);
}

/** Every period the range `from`..`to` (days, both included) touches, in order. */
export function reportPeriodStarts(from: string, to: string, period: ReportPeriod): string[] {
  const starts: string[] = [];
  for (let start = reportPeriodStart(from, period); start <= to;) {
    starts.push(start);
    start = period === 'week' ? addDays(start, 7) : reportPeriodStart(addDays(start, 31), 'month');
  }
  return starts;
}

/** What is wrong with a report's range (a message), or null. Days are `yyyy-mm-dd` already checked for shape. */
export function reportRangeError(from: string, to: string): string | null {
  if (addDays(from, 0) !== from) return 'The start date is not a date';
  if (addDays(to, 0) !== to) return 'The end date is not a date';
  if (to < from) return 'The end date is before the start date';
  if (from < REPORT_FIRST_DAY || to > REPORT_LAST_DAY) return `A report covers days from ${REPORT_FIRST_DAY} to ${REPORT_LAST_DAY}`;
  if (daysBetween(from, to) + 1 > REPORT_MAX_RANGE_DAYS) return `A report covers at most ${REPORT_MAX_RANGE_DAYS} days`;
  return null;
}

/** The page a request opens at (the UI's request view). */
export const requestViewPath = (requestType: string, id: number) => `/requests/${requestType}/${id}`;

// ---------------------------------------------------------------- one-line readings

/** Business days as people read them: one decimal, no trailing `.0`. */
export const formatBusinessDays = (n: number) => String(Math.round(n * 10) / 10);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 100) : 0);

export function volumesReading(received: number, completed: number, periods: number, period: ReportPeriod): string {
  if (!received && !completed) return 'No requests received or completed in this range';
  const per = periods ? Math.round((received / periods) * 10) / 10 : received;
  return `${plural(received, 'request')} received (${per} a ${period}), ${completed} completed`;
}

export function turnaroundReading(completed: number, medianDays: number | null, p90Days: number | null): string {
  if (!completed || medianDays === null || p90Days === null) return 'No request completed in this range';
  return `median ${formatBusinessDays(medianDays)} business days, 90 % within ${formatBusinessDays(p90Days)} (${plural(completed, 'request')} completed)`;
}

export function timeInStatusReading(officeDays: number, requesterDays: number): string {
  const total = officeDays + requesterDays;
  if (total <= 0) return 'No time spent waiting in this range';
  return `${percent(officeDays, total)} % of the waiting was on the office (${formatBusinessDays(officeDays)} business days), `
    + `${percent(requesterDays, total)} % on requesters (${formatBusinessDays(requesterDays)})`;
}

export function backlogReading(open: number, overTwenty: number, oldestDays: number | null): string {
  if (!open) return 'No open requests';
  return `${plural(open, 'open request')}, ${overTwenty} older than 20 business days`
    + (oldestDays === null ? '' : `; the oldest waits ${formatBusinessDays(oldestDays)} business days`);
}

export function missedDeadlinesReading(reminders: number, escalations: number, autoClosed: number): string {
  if (!reminders && !escalations && !autoClosed) return 'No deadline missed in this range';
  return `${plural(reminders, 'reminder')} sent, ${plural(escalations, 'escalation')}, ${autoClosed} closed without an answer`;
}

export function topRequestersReading(top: { name: string; requests: number } | undefined, received: number): string {
  if (!top || !received) return 'No requests received in this range';
  return `${top.name} asked most: ${plural(top.requests, 'request')}, ${percent(top.requests, received)} % of all received`;
}

/** Time elapsed as people read it: seconds, minutes, hours or days, whichever reads best. */
export function formatElapsed(seconds: number): string {
  const one = (n: number) => String(Math.round(n * 10) / 10);
  if (seconds < 90) return plural(Math.round(seconds), 'second');
  if (seconds < 90 * 60) return plural(Math.round(seconds / 60), 'minute');
  if (seconds < 36 * 3600) return `${one(seconds / 3600)} hours`;
  return `${one(seconds / 86_400)} days`;
}

/** The share a rule issued and the two turnarounds (business days, and time elapsed): medians, null when none. */
export function instantIssuesReading(
  certificates: number,
  rule: { issued: number; median: number | null; medianElapsedSeconds: number | null },
  office: { issued: number; median: number | null; medianElapsedSeconds: number | null },
): string {
  if (!certificates) return 'No certificate issued in this range';
  const median = (m: { median: number | null; medianElapsedSeconds: number | null }) =>
    `${formatBusinessDays(m.median ?? 0)} business days (${formatElapsed(m.medianElapsedSeconds ?? 0)})`;
  const share = `${rule.issued} of ${plural(certificates, 'certificate')} issued instantly (${percent(rule.issued, certificates)} %)`;
  const parts = [rule.issued ? `instantly ${median(rule)}` : null, office.issued ? `by the office ${median(office)}` : null].filter(Boolean);
  return `${share}; median turnaround ${parts.join(', ')}`;
}
