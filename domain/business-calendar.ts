/**
 * The office's business calendar: work days, office hours and holidays in the office's time zone, and
 * "N business days after an instant" as a pure function. Deterministic (no clock is read; time zones come from the
 * JavaScript engine's Intl data), so the request workflow can compute its timers from it.
 *
 * A business day is one full span of office hours: two business days after Friday 16:00 (office 08:00–17:00) is
 * Tuesday 16:00 (one hour on Friday, nine on Monday, eight on Tuesday); a request that arrives at night starts counting at the next opening.
 */

export interface BusinessCalendar {
  /** IANA time zone of the office, e.g. America/Los_Angeles */
  timeZone: string;
  /** office hours, local `HH:MM`–`HH:MM` */
  officeHours: { start: string; end: string };
  /** ISO week days the office works (1 Monday … 7 Sunday) */
  workDays: number[];
  /** office holidays, local `yyyy-mm-dd` */
  holidays: string[];
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * One formatter per zone: building an `Intl.DateTimeFormat` and formatting once took 131 µs against 8 µs for
 * formatting with a built one (Node 24, this machine), and a search by dates or a dashboard converts a few instants
 * per call (without it, 30% of a search's CPU in the lists profile). Pure memoisation, nothing shared between calls but
 * the formatter; the office has one zone.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
    });
    if (formatters.size >= 16) formatters.clear(); // a bound, should callers ever pass many zones
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Local wall-clock parts of an instant in a time zone. */
function localParts(ms: number, timeZone: string): { y: number; m: number; d: number; h: number; min: number } {
  const parts = formatterOf(timeZone).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { y: get('year'), m: get('month'), d: get('day'), h: get('hour'), min: get('minute') };
}

/** How far the zone's wall clock is ahead of UTC at an instant (minutes precision). */
function offsetAt(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min) - Math.floor(ms / MINUTE) * MINUTE;
}

/**
 * Instants already worked out, by zone, day and time: a search by dates or a dashboard asks for the same few day
 * boundaries on every call, and each costs two zone conversions (5% of a search's CPU in the lists profile).
 * Pure memoisation, bounded.
 */
const instants = new Map<string, number>();

/** The instant a local wall-clock time happens in the zone (the later reading across a DST change). */
export function zonedInstant(day: string, time: string, timeZone: string): number {
  const key = `${timeZone} ${day} ${time}`;
  let instant = instants.get(key);
  if (instant === undefined) {
    instant = computeZonedInstant(day, time, timeZone);
    if (instants.size >= 4096) instants.clear();
    instants.set(key, instant);
  }
  return instant;
}

function computeZonedInstant(day: string, time: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number);
  const [h, min] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, h, min);
  const first = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(first, timeZone);
}

/** The local calendar day (`yyyy-mm-dd`) of an instant in the zone. */
export function zonedDay(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  return `${p.y}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
}

/** `yyyy-mm-dd` plus whole days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d) + days * DAY).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to` (both `yyyy-mm-dd`). */
export function daysBetween(from: string, to: string): number {
  const at = (day: string) => { const [y, m, d] = day.split('-').map(Number); return Date.UTC(y, m - 1, d); };
  return Math.round((at(to) - at(from)) / DAY);
}

/** ISO week day of a `yyyy-mm-dd` (1 Monday … 7 Sunday). */
const isoWeekDay = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1;
};

/** Whether the office works on the local day `yyyy-mm-dd`: a work day of the week that is not a holiday. */
export const isBusinessDay = (calendar: BusinessCalendar, day: string): boolean =>
  calendar.workDays.includes(isoWeekDay(day)) && !calendar.holidays.includes(day);

/** Length of one business day (office hours) in milliseconds, as written (DST days are counted by the wall clock). */
export function officeDayMs(calendar: BusinessCalendar): number {
  const minutes = (t: string) => { const [h, m] = t.split(':').map(Number); return h * 60 + m; };
  return (minutes(calendar.officeHours.end) - minutes(calendar.officeHours.start)) * MINUTE;
}

/** Longest search for business time: ten years of days (a calendar with no work day at all never ends). */
const MAX_DAYS_SEARCHED = 3660;

/**
 * The instant `businessDays` business days of office time after `fromMs`. Time outside office hours, on weekends and
 * on holidays does not count. Fractions are allowed (0.5 = half an office day).
 */
export function addBusinessDays(calendar: BusinessCalendar, fromMs: number, businessDays: number): number {
  let remaining = businessDays * officeDayMs(calendar);
  let day = zonedDay(fromMs, calendar.timeZone);
  for (let i = 0; i < MAX_DAYS_SEARCHED; i++, day = addDays(day, 1)) {
    if (!isBusinessDay(calendar, day)) continue;
    const open = zonedInstant(day, calendar.officeHours.start, calendar.timeZone);
    const close = zonedInstant(day, calendar.officeHours.end, calendar.timeZone);
    const start = Math.max(open, fromMs);
    if (start >= close) continue;
    if (remaining <= close - start) return start + remaining;
    remaining -= close - start;
  }
  throw new Error('The business calendar has no office hours in the next ten years');
}

/**
 * Office time between two instants, in milliseconds: the parts of office hours on business days that lie between
 * them (negative when `toMs` comes first). What the reports measure in PostgreSQL (services/desk/office-calendar.ts);
 * `addBusinessDays(calendar, from, businessMsBetween(calendar, from, to) / officeDayMs(calendar))` is `to` again
 * whenever `to` is inside office hours.
 */
export function businessMsBetween(calendar: BusinessCalendar, fromMs: number, toMs: number): number {
  if (toMs < fromMs) return -businessMsBetween(calendar, toMs, fromMs);
  const last = zonedDay(toMs, calendar.timeZone);
  let total = 0;
  for (let day = zonedDay(fromMs, calendar.timeZone); day <= last; day = addDays(day, 1)) {
    if (!isBusinessDay(calendar, day)) continue;
    const open = zonedInstant(day, calendar.officeHours.start, calendar.timeZone);
    const close = zonedInstant(day, calendar.officeHours.end, calendar.timeZone);
    total += Math.max(0, Math.min(close, toMs) - Math.max(open, fromMs));
  }
  return total;
}

/** An instant as a person in the office reads it: `mm/dd/yyyy h:mm AM` in the office's zone (the security log). */
export function zonedDateTime(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  const hour = p.h % 12 === 0 ? 12 : p.h % 12;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(p.m)}/${pad(p.d)}/${p.y} ${hour}:${pad(p.min)} ${p.h < 12 ? 'AM' : 'PM'}`;
}
