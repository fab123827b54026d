/**
 * The calendar of a date-range picker (spec 1 §4 "Date range picking: first click sets the start, second the end; an
 * earlier second date swaps only where swapping is enabled"), as pure functions of calendar days (`yyyy-mm-dd`), so
 * the rule is tested here and the UI only draws it. Days are calendar days, never instants: no zone is involved.
 */
import { addDays } from './business-calendar';

export interface DayRange { start: string | null; end: string | null }

/**
 * The range after a click on `day`. The first click (or one after a complete range) starts anew; the second sets
 * the end. A second day earlier than the start becomes the end and the start swapped when `swap` is on, else it
 * becomes the new start (the range waits for its end).
 */
export function rangeAfterClick(range: DayRange, day: string, swap = false): DayRange {
  if (!range.start || range.end) return { start: day, end: null };
  if (day >= range.start) return { start: range.start, end: day };
  return swap ? { start: day, end: range.start } : { start: day, end: null };
}

/** `yyyy-mm` of a day. */
export const monthOf = (day: string): string => day.slice(0, 7);

/** The month `n` months after `month` (`yyyy-mm`; n may be negative). */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const index = y * 12 + (m - 1) + n;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The same day of the month `n` months on, kept within that month (Jan 31 + 1 month → Feb 28 or 29). */
export function addMonthsToDay(day: string, n: number): string {
  const month = addMonths(monthOf(day), n);
  const last = addDays(`${addMonths(month, 1)}-01`, -1);
  const candidate = `${month}-${day.slice(8, 10)}`;
  return candidate > last ? last : candidate;
}

const weekday = (day: string): number => new Date(`${day}T12:00:00Z`).getUTCDay();

/** The weeks of a month, Sunday first: each week seven days of the month or null for the days of another month. */
export function monthWeeks(month: string): (string | null)[][] {
  const first = `${month}-01`;
  const weeks: (string | null)[][] = [];
  let week: (string | null)[] = Array.from({ length: weekday(first) }, () => null);
  for (let day = first; monthOf(day) === month; day = addDays(day, 1)) {
    week.push(day);
    if (week.length === 7) { weeks.push(week); week = []; }
  }
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return weeks;
}

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTH_NAMES = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December',
] as const;

/** `2025-05` → `May 2025`. */
export const monthTitle = (month: string): string => `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

/** `2025-05-01` → `Thursday, May 1, 2025` (what a screen reader says for a day of the calendar). */
export const dayLabel = (day: string): string =>
  `${WEEKDAY_NAMES[weekday(day)]}, ${MONTH_NAMES[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}, ${day.slice(0, 4)}`;

/** The day a key moves the calendar's focus to (arrows by day and week, Page Up/Down by month, Home/End in the week). */
export function dayAfterKey(day: string, key: string, shift = false): string | null {
  switch (key) {
    case 'ArrowLeft': return addDays(day, -1);
    case 'ArrowRight': return addDays(day, 1);
    case 'ArrowUp': return addDays(day, -7);
    case 'ArrowDown': return addDays(day, 7);
    case 'PageUp': return shift ? addMonthsToDay(day, -12) : addMonthsToDay(day, -1);
    case 'PageDown': return shift ? addMonthsToDay(day, 12) : addMonthsToDay(day, 1);
    case 'Home': return addDays(day, -weekday(day));
    case 'End': return addDays(day, 6 - weekday(day));
    default: return null;
  }
}
