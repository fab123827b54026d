/**
 * Date rules of spec 1 §5 ("Request form") and spec 2 §5 (dates go to the server at 11:00 UTC of the day).
 * Pure: "today" is always passed in, never read from a clock, so the rules bundle into workflows and the browser.
 */
import { MESSAGES } from './messages';

/** Earliest claim-history and request date: July 1, 2002. */
export const EARLIEST_REQUEST_DAY = '2002-07-01';

const MMDDYYYY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** `mm/dd/yyyy` → `yyyy-mm-dd`, or null when the text is not a real calendar day. */
export function parseUsDate(text: string): string | null {
  const match = MMDDYYYY.exec(text.trim());
  if (!match) return null;
  const [, mm, dd, yyyy] = match;
  const month = Number(mm), day = Number(dd), year = Number(yyyy);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  return `${yyyy}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `yyyy-mm-dd` → ISO timestamp at 11:00 UTC of that day (the spec's wire format). */
export const dayToServerIso = (day: string): string => `${day}T11:00:00.000Z`;

// Showing a date, and "today", are the office's: domain/office-time.ts.

interface DateRangeErrors { dateFrom?: string; dateTo?: string }

/** Messages for the request period. Spec messages where named; our own wording for range rules. */
export const DATE_RANGE_MESSAGES = {
  beforeEarliest: 'Date cannot be before 07/01/2002',
  afterToday: 'Date cannot be after today',
  startAfterEnd: 'Start date cannot be after end date',
  endBeforeStart: 'End date cannot be before start date',
  startTimeAfterEnd: 'Start time cannot be after end time',
  endTimeBeforeStart: 'End time cannot be before start time',
} as const;

/**
 * Validates the request period typed as mm/dd/yyyy. Rules: both required, valid dates, neither before
 * 7/1/2002 nor after today, start not after end (and end not before start).
 */
export function validateRequestPeriod(fromText: string | undefined, toText: string | undefined, today: string): DateRangeErrors {
  const errors: DateRangeErrors = {};
  const check = (text: string | undefined, key: keyof DateRangeErrors): string | null => {
    if (!text || !text.trim()) { errors[key] = MESSAGES.required; return null; }
    const day = parseUsDate(text);
    if (!day) { errors[key] = MESSAGES.requestDateFormat; return null; }
    if (day < EARLIEST_REQUEST_DAY) { errors[key] = DATE_RANGE_MESSAGES.beforeEarliest; return null; }
    if (day > today) { errors[key] = DATE_RANGE_MESSAGES.afterToday; return null; }
    return day;
  };
  const from = check(fromText, 'dateFrom');
  const to = check(toText, 'dateTo');
  if (from && to && from > to) {
    errors.dateFrom = DATE_RANGE_MESSAGES.startAfterEnd;
    errors.dateTo = DATE_RANGE_MESSAGES.endBeforeStart;
  }
  return errors;
}
