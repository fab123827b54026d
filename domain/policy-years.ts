import { RENTAL_AUTO_TYPE } from './reference-lists';

/** Policy years run July 1 to June 30 (spec 2 §9.2). */
export interface PolicyYearLimits {
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
