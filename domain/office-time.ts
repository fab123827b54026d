/**
 * Dates and times as the office reads them. Every date a person sees or prints (dashboards,
 * search, the request page, the audit tab, exports, emails, letters) and every "which day is it" the rules ask
 * (today's date on a form, Today/MTD/YTD, the policy year in force on the issue date, a search by dates) goes through
 * these functions with the office's time zone (OFFICE_TIME_ZONE; the UI reads it from the page, ui/src/lib/office.ts).
 * Never the process's or the browser's own zone, and never the UTC day of an instant: after 16:00 in Portland in
 * winter the UTC day is already tomorrow.
 *
 * Calendar-day values (a request period, a birth date, a policy year) travel as 11:00 UTC of their day (spec 2 §5) or
 * as `yyyy-mm-dd`; both read as that same day in every zone from UTC−11 to UTC+12, so they go through here too.
 */
import { addDays, zonedDateTime, zonedDay, zonedInstant } from './business-calendar';

/** The office's zone unless OFFICE_TIME_ZONE says otherwise: the university health system is in Portland, Oregon. */
export const DEFAULT_OFFICE_TIME_ZONE = 'America/Los_Angeles';

export type Instant = Date | string | number;

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function millisOf(value: Instant): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  return Date.parse(value);
}

/** The office's calendar day (`yyyy-mm-dd`) of an instant; a `yyyy-mm-dd` is already one. Null when unreadable. */
export function officeDay(value: Instant, timeZone: string): string | null {
  if (typeof value === 'string' && DAY_ONLY.test(value)) return value;
  const ms = millisOf(value);
  return Number.isFinite(ms) ? zonedDay(ms, timeZone) : null;
}

/** `MM/dd/yyyy` (spec 2 §9.1) of the office's day, or '' for nothing. */
export function formatOfficeDate(value: Instant | null | undefined, timeZone: string): string {
  if (value === null || value === undefined || value === '') return '';
  const day = officeDay(value, timeZone);
  if (!day) return '';
  const [y, m, d] = day.split('-');
  return `${m}/${d}/${y}`;
}

/** `MM/dd/yyyy h:mm AM` on the office's clock, or '' for nothing. */
export function formatOfficeDateTime(value: Instant | null | undefined, timeZone: string): string {
  if (value === null || value === undefined || value === '') return '';
  const ms = millisOf(value);
  return Number.isFinite(ms) ? zonedDateTime(ms, timeZone) : '';
}

/** Today in the office. */
export const officeToday = (timeZone: string, now: number = Date.now()): string => zonedDay(now, timeZone);

/** The instant the office's day `yyyy-mm-dd` begins: the inclusive start of a day range. */
export const officeDayStart = (day: string, timeZone: string): Date => new Date(zonedInstant(day, '00:00', timeZone));

/** The instant the office's day after `day` begins: the exclusive end of an inclusive day range. */
export const officeDayAfter = (day: string, timeZone: string): Date => new Date(zonedInstant(addDays(day, 1), '00:00', timeZone));

/** The first day of the office's current month and year, for month- and year-to-date counts. */
export function officePeriodStarts(timeZone: string, now: number = Date.now()): { today: string; month: string; year: string } {
  const today = officeToday(timeZone, now);
  return { today, month: `${today.slice(0, 7)}-01`, year: `${today.slice(0, 4)}-01-01` };
}
