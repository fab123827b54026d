import { RENTAL_AUTO_TYPE } from './reference-lists';
import { DEFAULT_OFFICE_TIME_ZONE, formatOfficeDate } from './office-time';
import { STATUS } from './request-status';

/** Policy years run July 1 to June 30 (spec 2 §9.2). */
interface PolicyYearLimits {
  startDate: string; // ISO
  endDate: string;   // ISO
  policyNumber: string;
  limitClaim: string;      // money string
  annualAggregate: string; // money string
}

/** The policy years that overlap [from, to] (calendar days yyyy-mm-dd), oldest first. */
export function policyYearsCovering<T extends PolicyYearLimits>(years: T[], from: string, to: string): T[] {
  return years
    .filter((y) => y.startDate.slice(0, 10) <= to && y.endDate.slice(0, 10) >= from)
    .sort((a, b) => a.startDate.localeCompare(b.startDate));
}

/** "2565400" / "2,565,400.00" → "$2,565,400.00" (spec 2 §9.1: USD, 2 decimals). */
export function formatUsd(money: string | number): string {
  const value = typeof money === 'number' ? money : Number(String(money).replace(/[$,\s]/g, ''));
  return value.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
}

/** The calendar day (yyyy-mm-dd) of a stored date (11:00 UTC of the day) or of a day already written so. */
export const dayOf = (value: Date | string | null | undefined): string | null =>
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
export function coveredPeriod(r: CoveredPeriodFields, issuedDay: string): { from: string; to: string } {
  const pair = (a: Date | string | null | undefined, b: Date | string | null | undefined) => {
    const from = dayOf(a);
    return from ? { from, to: dayOf(b) ?? from } : null;
  };
  // `issuedDay` is the office's day the document is issued (officeDay, domain/office-time.ts), never a UTC day.
  const today = { from: issuedDay.slice(0, 10), to: issuedDay.slice(0, 10) };
  if (r.requestType === 'credentialing') return pair(r.dateFrom, r.dateTo) ?? today;
  if (r.certificateType === 'Clinician' || r.certificateType === 'Provider') return pair(r.dateFrom, r.dateTo) ?? today;
  if (r.certificateType === 'Event') return pair(r.eventStartDate, r.eventEndDate) ?? today;
  if (r.autoType === RENTAL_AUTO_TYPE) return pair(r.rentalStartDate, r.rentalEndDate) ?? today;
  return today;
}

const nextDay = (d: string) => new Date(Date.parse(`${d}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** True when every day from `from` to `to` lies in some policy year (years may be given in any order). */
export function periodCovered(years: ReadonlyArray<{ startDate: Date | string; endDate: Date | string }>, from: string, to: string): boolean {
  const spans = years.map((y) => ({ start: dayOf(y.startDate)!, end: dayOf(y.endDate)! })).sort((a, b) => a.start.localeCompare(b.start));
  let uncovered = from; // the first day not yet known to be covered
  for (const span of spans) {
    if (span.start > uncovered) break;
    if (span.end >= uncovered) uncovered = nextDay(span.end);
    if (uncovered > to) return true;
  }
  return uncovered > to;
}

/** The statuses whose approval issues a document that shows the policy years: a certificate, or a letter of intent. */
const ISSUING_CERTIFICATE_STATUSES: readonly string[] = [STATUS.approved, STATUS.approvedWithLetterOfIntent];

/** A calendar day (`yyyy-mm-dd`) as the office reads it: the one date format of domain/office-time.ts. */
const usDay = (day: string) => formatOfficeDate(day, DEFAULT_OFFICE_TIME_ZONE);

/** `data.reason` of that refusal, so a screen can offer the way out (set Pending New Policy Year) as a button. */
export const NO_POLICY_YEAR_REASON = 'noPolicyYear';

/** Why a certificate may not be issued for a period no policy year covers, naming the dates. */
export const uncoveredCertificateMessage = (from: string, to: string): string =>
  `No policy year on record covers ${from === to ? usDay(from) : `${usDay(from)} – ${usDay(to)}`}, so no certificate can be issued. `
  + `Add the policy year under Manage > Policies, or set the status to "${STATUS.pendingNewPolicyYear}": the request then waits, and returns to review when a policy year covering its dates is saved.`;

/** Whether moving the request to `newStatus` issues a certificate (and so needs a policy year covering its period). */
export const issuesCertificate = (request: Pick<CoveredPeriodFields, 'requestType'>, newStatus: string): boolean =>
  request.requestType === 'certificate' && ISSUING_CERTIFICATE_STATUSES.includes(newStatus);

/**
 * Refuses issuing a certificate or letter of intent whose dates no policy year covers: the message to show, or null
 * when it may be issued (not a certificate, not an issuing status, or covered). `issuedDay` is the office's today.
 */
export function certificateCoverageError(
  request: CoveredPeriodFields, newStatus: string, years: ReadonlyArray<{ startDate: Date | string; endDate: Date | string }>, issuedDay: string,
): string | null {
  if (!issuesCertificate(request, newStatus)) return null;
  const { from, to } = coveredPeriod(request, issuedDay);
  return periodCovered(years, from, to) ? null : uncoveredCertificateMessage(from, to);
}
