/**
 * The clocks a request keeps by itself, defined once: when each is due, what it does, what it says.
 * The request workflow holds them as durable Temporal timers computed with `nextClock`; nothing here reads a clock.
 *
 * - Reminders: a request in Pending Additional Information reminds the requester N and M business days after it
 *   entered that status, then (if enabled) closes after `autoClose.afterBusinessDays`.
 * - Escalation: a request Submitted and not yet reviewed is escalated to the administrators' mailbox after K
 *   business days. The office's clock does not run while the request waits on the requester: it starts again from
 *   zero when the requester resubmits.
 * - Signed release expiry: a credentialing request's signed release is valid `releaseValidityDays` from its date;
 *   still open when it expires, the request goes back to the requester for a new one.
 *
 * `compressedDayMs` (tests, demonstrations) makes every day, business or calendar, last that many milliseconds
 * from the moment the clock starts: weekends, office hours and holidays are then ignored.
 */
import { addBusinessDays, addDays, daysBetween, zonedDay, zonedInstant, type BusinessCalendar } from './business-calendar';
import { AUTOMATED_EMAIL_ACTOR } from './messages';
import { DEFAULT_OFFICE_TIME_ZONE } from './office-time';
import { isFinished, STATUS, type RequestStatus } from './request-status';

export interface ClockPolicy {
  calendar: BusinessCalendar;
  /** tests: every day lasts this many ms (null: the real calendar) */
  compressedDayMs: number | null;
  /** N and M: business days in Pending Additional Information before the first and the second reminder */
  reminderAfterBusinessDays: [number, number];
  /** close the request when the requester never answers (after the reminders) */
  autoClose: { enabled: boolean; afterBusinessDays: number };
  /** K: business days Submitted and not reviewed before the administrators are told */
  escalateAfterBusinessDays: number;
  /** a signed release is valid this many calendar days from its date (spec 2: 180) */
  releaseValidityDays: number;
}

/** University holidays the office closes for (local days); configurable with OFFICE_HOLIDAYS. */
const DEFAULT_OFFICE_HOLIDAYS = [
  '2026-01-01', '2026-01-19', '2026-05-25', '2026-06-19', '2026-07-03', '2026-09-07', '2026-11-11', '2026-11-26', '2026-11-27', '2026-12-25',
  '2027-01-01', '2027-01-18', '2027-05-31', '2027-06-18', '2027-07-05', '2027-09-06', '2027-11-11', '2027-11-25', '2027-11-26', '2027-12-24',
];

export const DEFAULT_CLOCK_POLICY: ClockPolicy = {
  calendar: { timeZone: DEFAULT_OFFICE_TIME_ZONE, officeHours: { start: '08:00', end: '17:00' }, workDays: [1, 2, 3, 4, 5], holidays: DEFAULT_OFFICE_HOLIDAYS },
  compressedDayMs: null,
  reminderAfterBusinessDays: [5, 10],
  autoClose: { enabled: true, afterBusinessDays: 20 },
  escalateAfterBusinessDays: 3,
  releaseValidityDays: 180,
};

/** The templates the clocks send, after the twelve of spec 2 §9.3 (their titles and orders unchanged). */
export const CLOCK_TEMPLATE_TITLES = {
  reminder: 'Reminder: Additional Information Needed',
  escalation: 'Request Escalation',
  autoClosed: 'Request Closed: No Response',
} as const;
export type ClockTemplateTitle = (typeof CLOCK_TEMPLATE_TITLES)[keyof typeof CLOCK_TEMPLATE_TITLES];
export const CLOCK_TEMPLATE_ORDER: ReadonlyArray<readonly [ClockTemplateTitle, number]> = [
  [CLOCK_TEMPLATE_TITLES.reminder, 45], [CLOCK_TEMPLATE_TITLES.escalation, 50], [CLOCK_TEMPLATE_TITLES.autoClosed, 55],
];

/** Who performs what a clock does, in the audit trail: the system actor of the automated emails. */
export const CLOCK_ACTOR = { name: AUTOMATED_EMAIL_ACTOR, email: '' } as const;

export type ClockKind = 'reminder-1' | 'reminder-2' | 'auto-close' | 'escalation' | 'release-expiry';

/** What the clocks know of the request; kept by the workflow and carried across continue-as-new. */
export interface ClockState {
  status: RequestStatus;
  /** ISO instant the request entered its status (workflow time) */
  statusSince: string;
  /** reminders already sent in the current stay in Pending Additional Information */
  remindersSent: number;
  /** escalated during the current stay in Submitted */
  escalated: boolean;
  /** credentialing only: the signed release's date (`yyyy-mm-dd`) and when it was recorded */
  signedReleaseDate: string | null;
  signedReleaseRecordedAt: string | null;
  /** the release's expiry has been acted on */
  releaseExpiryHandled: boolean;
}

export interface DueClock { kind: ClockKind; dueAt: number; summary: string }

/** `days` business days after an instant, under the policy (compressed: plain elapsed time). */
function businessDaysAfter(policy: ClockPolicy, fromMs: number, days: number): number {
  return policy.compressedDayMs ? fromMs + days * policy.compressedDayMs : addBusinessDays(policy.calendar, fromMs, days);
}

/**
 * When a signed release dated `releaseDay` stops being valid: the start of the office day after the last valid one
 * (dated within the last `releaseValidityDays` days, spec 1 §3). Compressed: the days left at recording elapse at
 * `compressedDayMs` each from `recordedAt`.
 */
export function releaseExpiresAt(policy: ClockPolicy, releaseDay: string, recordedAt: string): number {
  const lastValid = addDays(releaseDay, policy.releaseValidityDays);
  if (policy.compressedDayMs) {
    const recorded = Date.parse(recordedAt);
    const daysLeft = daysBetween(zonedDay(recorded, policy.calendar.timeZone), lastValid) + 1;
    return recorded + Math.max(0, daysLeft) * policy.compressedDayMs;
  }
  return zonedInstant(addDays(lastValid, 1), '00:00', policy.calendar.timeZone);
}

/** Timer summaries, as operators see them on the pending timers in the Temporal UI. */
const CLOCK_SUMMARY: Record<ClockKind, string> = {
  'reminder-1': 'First reminder: waiting for the requester\'s additional information',
  'reminder-2': 'Second reminder: waiting for the requester\'s additional information',
  'auto-close': 'Auto-close: no answer from the requester',
  escalation: 'Escalation: submitted and not yet reviewed',
  'release-expiry': 'Signed release expiry',
};

/** The next clock due for the request, or null when none runs. The earliest wins. */
export function nextClock(policy: ClockPolicy, requestType: string, s: ClockState): DueClock | null {
  const since = Date.parse(s.statusSince);
  const due: Array<{ kind: ClockKind; dueAt: number }> = [];
  if (s.status === STATUS.pendingAdditionalInformation) {
    const [n, m] = policy.reminderAfterBusinessDays;
    if (s.remindersSent === 0) due.push({ kind: 'reminder-1', dueAt: businessDaysAfter(policy, since, n) });
    else if (s.remindersSent === 1) due.push({ kind: 'reminder-2', dueAt: businessDaysAfter(policy, since, m) });
    else if (policy.autoClose.enabled) due.push({ kind: 'auto-close', dueAt: businessDaysAfter(policy, since, policy.autoClose.afterBusinessDays) });
  }
  if (s.status === STATUS.submitted && !s.escalated) {
    due.push({ kind: 'escalation', dueAt: businessDaysAfter(policy, since, policy.escalateAfterBusinessDays) });
  }
  if (requestType === 'credentialing' && s.signedReleaseDate && s.signedReleaseRecordedAt && !s.releaseExpiryHandled
    && s.status !== STATUS.draft && !isFinished(s.status)) {
    due.push({ kind: 'release-expiry', dueAt: releaseExpiresAt(policy, s.signedReleaseDate, s.signedReleaseRecordedAt) });
  }
  if (!due.length) return null;
  const first = due.reduce((a, b) => (b.dueAt < a.dueAt ? b : a));
  return { ...first, summary: CLOCK_SUMMARY[first.kind] };
}

/** The clock state after the request entered `status` at `at`: clocks of the previous status stop. */
export function enterStatus(s: ClockState, status: RequestStatus, at: string): ClockState {
  return { ...s, status, statusSince: at, remindersSent: 0, escalated: false };
}

// ---------------------------------------------------------------- what the clocks say

export const reminderAuditText = (n: number, businessDays: number) =>
  `Reminder ${n} sent: no additional information from the requester after ${plural(businessDays, 'business day')}`;
export const escalationAuditText = (businessDays: number) =>
  `Escalated to the administrators: submitted and not reviewed for ${plural(businessDays, 'business day')}`;
/** Said after the status change of an automatic close, in its audit row. */
export const autoCloseReason = (businessDays: number) =>
  `closed automatically: no answer from the requester after ${plural(businessDays, 'business day')}`;
/** The text the `Additional Information Needed` email of an expired release carries (`{{additionalInformation}}`). */
export const releaseExpiredText = (releaseDay: string, validityDays: number) =>
  `The signed release dated ${formatDay(releaseDay)} is more than ${validityDays} days old. Please upload a new signed release and resubmit the request.`;
/** Said after the status change (or on its own row) when the signed release expires. */
const RELEASE_EXPIRED_MARK = 'a new signed release was requested';
export const releaseExpiredReason = (releaseDay: string, validityDays: number) =>
  `signed release dated ${formatDay(releaseDay)} expired after ${validityDays} days: ${RELEASE_EXPIRED_MARK}`;
export const signedReleaseRecordedText = (releaseDay: string) => `Signed release dated ${formatDay(releaseDay)} recorded`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const formatDay = (day: string) => { const [y, m, d] = day.split('-'); return `${m}/${d}/${y}`; };

// ---------------------------------------------------------------- the administrator's entry

export const SIGNED_RELEASE_DATE_LABEL = 'Signed Release Date';
export const SIGNED_RELEASE_MESSAGES = {
  invalid: 'Date input not valid.',
  future: 'The signed release date cannot be in the future',
  expired: (validityDays: number) => `The signed release must be dated within the last ${validityDays} days`,
  credentialingOnly: 'Only claim history requests have a signed release',
} as const;

/** The administrator's signed release date (`yyyy-mm-dd`) against today (local office day): a message, or null. */
export function signedReleaseDateError(day: string, today: string, validityDays = DEFAULT_CLOCK_POLICY.releaseValidityDays): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || addDays(day, 0) !== day) return SIGNED_RELEASE_MESSAGES.invalid;
  if (day > today) return SIGNED_RELEASE_MESSAGES.future;
  if (daysBetween(day, today) > validityDays) return SIGNED_RELEASE_MESSAGES.expired(validityDays);
  return null;
}
