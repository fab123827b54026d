/**
 * The API's report → what each chart draws and its table lists: the same rows for both, so the table beside a chart
 * holds exactly the chart's numbers. Pure (unit-tested in tests/ui/report-data.test.ts).
 */
import type { Reports } from '../../../../contract/reports.schema';
import { formatBusinessDays } from '../../../../domain';
import { periodLabel } from './report-range';

export type ChartRow = Record<string, string | number>;

/** A table or chart: its row label column, its series (columns), and one row per bar/group. */
export interface Pivot {
  indexHeader: string;
  keys: string[];
  rows: ChartRow[];
}

/** "COI Request: Auto Liability" reads as "Auto Liability" in a legend; the table header keeps the full name. */
export const shortKind = (kind: string) => kind.replace(/^COI Request: /, '');

const sum = (row: ChartRow, keys: readonly string[]) => keys.reduce((total, key) => total + Number(row[key] ?? 0), 0);

/** Series with a non-zero value somewhere (an empty kind would only add a blank column and legend entry). */
const present = (keys: readonly string[], rows: readonly ChartRow[]) => keys.filter((key) => rows.some((row) => Number(row[key] ?? 0) !== 0));

export function volumesPivot(report: Reports, what: 'received' | 'completed'): Pivot {
  const all = report.kinds.map(shortKind);
  const rows = report.periods.map((period) => {
    const row: ChartRow = { period: periodLabel(period, report.filter.period) };
    for (const kind of report.kinds) row[shortKind(kind)] = 0;
    for (const r of report.volumes.rows) if (r.period === period) row[shortKind(r.kind)] = Number(row[shortKind(r.kind)]) + r[what];
    return row;
  });
  return { indexHeader: 'Period', keys: present(all, rows), rows };
}

/** Median per kind and period (the bars); the 90th percentile is looked up for the whisker and the table. */
export function turnaroundPivot(report: Reports): Pivot & { p90: (period: string | number, kind: string | number) => number | null } {
  const all = report.kinds.map(shortKind);
  const p90 = new Map<string, number>();
  const rows = report.periods.map((period) => {
    const label = periodLabel(period, report.filter.period);
    const row: ChartRow = { period: label };
    for (const r of report.turnaround.rows) {
      if (r.period !== period || !r.completed) continue;
      row[shortKind(r.kind)] = r.median;
      p90.set(`${label}\u0000${shortKind(r.kind)}`, r.p90);
    }
    return row;
  });
  const keys = all.filter((key) => rows.some((row) => key in row));
  return { indexHeader: 'Period', keys, rows, p90: (period, kind) => p90.get(`${period}\u0000${kind}`) ?? null };
}

export function timeInStatusPivot(report: Reports): Pivot {
  const rows = report.timeInStatus.rows.map((r) => ({
    status: r.status,
    Office: r.waitingOn === 'office' ? r.businessDays : 0,
    Requester: r.waitingOn === 'requester' ? r.businessDays : 0,
  }));
  return { indexHeader: 'Status', keys: ['Office', 'Requester'], rows };
}

export function backlogPivot(report: Reports): Pivot {
  const statuses = [...new Set(report.backlog.rows.map((r) => r.status))];
  const rows = report.backlog.bands.map((band) => {
    const row: ChartRow = { band: band.label };
    for (const status of statuses) row[status] = 0;
    for (const r of report.backlog.rows) if (r.band === band.key) row[r.status] = Number(row[r.status]) + r.count;
    return row;
  });
  return { indexHeader: 'Age', keys: statuses, rows };
}

export const MISSED_KEYS = ['Reminders', 'Escalations', 'Closed without an answer'] as const;

export function missedDeadlinesPivot(report: Reports): Pivot {
  const rows = report.periods.map((period) => {
    const found = report.missedDeadlines.rows.find((r) => r.period === period);
    return {
      period: periodLabel(period, report.filter.period),
      Reminders: found?.reminders ?? 0,
      Escalations: found?.escalations ?? 0,
      'Closed without an answer': found?.autoClosed ?? 0,
    };
  });
  return { indexHeader: 'Period', keys: [...MISSED_KEYS], rows };
}

export function requestersPivot(list: Reports['topRequesters']['companies'], indexHeader: string): Pivot {
  const rows = list.map((r) => ({ name: r.name, Completed: r.completed, 'Not completed': r.requests - r.completed }));
  return { indexHeader, keys: ['Completed', 'Not completed'], rows };
}

export const rowTotal = sum;
export const days = (value: number | string | undefined) => (value === undefined || value === '' ? '—' : formatBusinessDays(Number(value)));

/** Whole-number ticks from 0 to at least `max`, at most six of them (1, 2, 5, 10, 20, 50… apart). */
export function countTicks(max: number): number[] {
  const steps = [1, 2, 5];
  let step = 1;
  for (let scale = 1; ; scale *= 10) {
    const found = steps.map((s) => s * scale).find((s) => Math.ceil(max / s) <= 5);
    if (found) { step = found; break; }
  }
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, i) => i * step);
}
