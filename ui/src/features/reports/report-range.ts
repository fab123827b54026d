/**
 * The date ranges the Reports page offers in one click, as office days (`yyyy-mm-dd`, both ends included), computed
 * from the office's today: "Last quarter" is the calendar quarter before the one today is in, "This year" runs from
 * January 1 to today, "Last 30 days" ends today.
 */
import { addDays } from '../../../../domain';

export interface DayRangeChoice { from: string; to: string }

export const RANGE_PRESETS = ['Last quarter', 'This year', 'Last 30 days'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const pad = (n: number) => String(n).padStart(2, '0');

export function presetRange(preset: RangePreset, today: string): DayRangeChoice {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  switch (preset) {
    case 'This year':
      return { from: `${year}-01-01`, to: today };
    case 'Last 30 days':
      return { from: addDays(today, -29), to: today };
    case 'Last quarter': {
      const quarter = Math.floor((month - 1) / 3); // 0..3, the quarter today is in
      const startYear = quarter === 0 ? year - 1 : year;
      const startMonth = quarter === 0 ? 10 : (quarter - 1) * 3 + 1;
      const firstOfNext = quarter === 0 ? `${year}-01-01` : `${year}-${pad(quarter * 3 + 1)}-01`;
      return { from: `${startYear}-${pad(startMonth)}-01`, to: addDays(firstOfNext, -1) };
    }
  }
}

/** `yyyy-mm-dd` → `mm/dd/yyyy`, as the date fields show it. */
export const usDate = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

/** A period's first day as a column or axis label: `Sep 2026` for a month, `Sep 7` (its Monday) for a week. */
export function periodLabel(periodStart: string, period: 'week' | 'month'): string {
  const date = new Date(`${periodStart}T12:00:00Z`);
  return period === 'month'
    ? date.toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
    : `Week of ${date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })}`;
}
