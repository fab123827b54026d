/**
 * The Reports page's date presets and the shaping of the API's report into chart rows (the same rows its tables
 * list): worked out by hand here.
 */
import { describe, expect, it } from 'vitest';
import type { Reports } from '../../contract/reports.schema';
import {
  backlogPivot, countTicks, missedDeadlinesPivot, requestersPivot, timeInStatusPivot, turnaroundPivot, volumesPivot,
} from '../../ui/src/features/reports/report-data';
import { OKABE_ITO, textColorOn } from '../../ui/src/features/reports/report-palette';
import { periodLabel, presetRange } from '../../ui/src/features/reports/report-range';

const CLAIM = 'Claim History and Insurance Verification';
const EVENT = 'COI Request: Event';

const report = {
  filter: { from: '2026-07-01', to: '2026-09-30', kind: null, period: 'month', timeZone: 'America/Los_Angeles', generatedAt: '2026-10-01T00:00:00Z' },
  periods: ['2026-07-01', '2026-08-01', '2026-09-01'],
  kinds: [CLAIM, EVENT, 'COI Request: Property'],
  volumes: {
    rows: [
      { period: '2026-07-01', kind: CLAIM, received: 3, completed: 1 },
      { period: '2026-07-01', kind: EVENT, received: 2, completed: 0 },
      { period: '2026-09-01', kind: EVENT, received: 1, completed: 2 },
    ],
    received: 6, completed: 3, reading: '6 requests received (2 a month), 3 completed',
  },
  turnaround: {
    rows: [{ period: '2026-09-01', kind: EVENT, completed: 2, median: 2.1, p90: 5 }],
    byKind: [{ kind: EVENT, completed: 2, median: 2.1, p90: 5 }], completed: 2, median: 2.1, p90: 5, reading: '',
  },
  timeInStatus: {
    rows: [
      { status: 'Submitted', waitingOn: 'office', businessDays: 4.25, requests: 3, averageBusinessDays: 1.42 },
      { status: 'Pending Additional Information', waitingOn: 'requester', businessDays: 2, requests: 1, averageBusinessDays: 2 },
    ],
    office: 4.25, requester: 2, reading: '',
  },
  backlog: {
    asOf: '2026-10-01T00:00:00Z',
    rows: [{ band: '1-3', status: 'Submitted', count: 2 }, { band: '20-plus', status: 'Pending Employment', count: 1 }],
    bands: [{ key: 'under-1', label: 'Under 1 business day' }, { key: '1-3', label: '1 to 3 business days' }, { key: '20-plus', label: '20 business days or more' }],
    open: 3, oldest: [], reading: '',
  },
  missedDeadlines: { rows: [{ period: '2026-08-01', reminders: 2, escalations: 1, autoClosed: 0 }], reminders: 2, escalations: 1, autoClosed: 0, reading: '' },
  topRequesters: { companies: [{ name: 'Mercy Hospital', requests: 4, completed: 1 }], departments: [], reading: '' },
} as unknown as Reports;

describe('date presets', () => {
  it('"Last quarter" is the calendar quarter before today\'s, across a new year too', () => {
    expect(presetRange('Last quarter', '2026-11-27')).toEqual({ from: '2026-07-01', to: '2026-09-30' });
    expect(presetRange('Last quarter', '2026-02-10')).toEqual({ from: '2025-10-01', to: '2025-12-31' });
    expect(presetRange('Last quarter', '2026-04-01')).toEqual({ from: '2026-01-01', to: '2026-03-31' });
  });
  it('"This year" starts on January 1; "Last 30 days" ends today and counts it', () => {
    expect(presetRange('This year', '2026-11-27')).toEqual({ from: '2026-01-01', to: '2026-11-27' });
    expect(presetRange('Last 30 days', '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
  });
  it('labels a month and a week by their first day', () => {
    expect(periodLabel('2026-09-01', 'month')).toBe('Sep 2026');
    expect(periodLabel('2026-09-07', 'week')).toBe('Week of Sep 7');
  });
});

describe('chart rows', () => {
  it('volumes: one row per period (empty ones too), a column per kind that has a request', () => {
    const received = volumesPivot(report, 'received');
    expect(received.keys).toEqual(['Claim History and Insurance Verification', 'Event']);
    expect(received.rows).toEqual([
      { period: 'Jul 2026', 'Claim History and Insurance Verification': 3, Event: 2, Property: 0 },
      { period: 'Aug 2026', 'Claim History and Insurance Verification': 0, Event: 0, Property: 0 },
      { period: 'Sep 2026', 'Claim History and Insurance Verification': 0, Event: 1, Property: 0 },
    ]);
    expect(volumesPivot(report, 'completed').keys).toEqual(['Claim History and Insurance Verification', 'Event']);
  });

  it('turnaround: the median per kind and period, the 90th percentile for its whisker', () => {
    const turnaround = turnaroundPivot(report);
    expect(turnaround.keys).toEqual(['Event']);
    expect(turnaround.rows[2]).toEqual({ period: 'Sep 2026', Event: 2.1 });
    expect(turnaround.p90('Sep 2026', 'Event')).toBe(5);
    expect(turnaround.p90('Jul 2026', 'Event')).toBeNull();
  });

  it('time in status splits office from requester; backlog puts every band in order with its statuses', () => {
    expect(timeInStatusPivot(report).rows).toEqual([
      { status: 'Submitted', Office: 4.25, Requester: 0 },
      { status: 'Pending Additional Information', Office: 0, Requester: 2 },
    ]);
    const backlog = backlogPivot(report);
    expect(backlog.keys).toEqual(['Submitted', 'Pending Employment']);
    expect(backlog.rows).toEqual([
      { band: 'Under 1 business day', Submitted: 0, 'Pending Employment': 0 },
      { band: '1 to 3 business days', Submitted: 2, 'Pending Employment': 0 },
      { band: '20 business days or more', Submitted: 0, 'Pending Employment': 1 },
    ]);
  });

  it('missed deadlines fill empty periods with zeros; requesters split completed from not completed', () => {
    expect(missedDeadlinesPivot(report).rows.map((row) => row.Reminders)).toEqual([0, 2, 0]);
    expect(requestersPivot(report.topRequesters.companies, 'Company').rows).toEqual([{ name: 'Mercy Hospital', Completed: 1, 'Not completed': 3 }]);
  });
});

describe('count axis', () => {
  it('ticks whole numbers only, at most six', () => {
    expect(countTicks(1)).toEqual([0, 1]);
    expect(countTicks(5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(countTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(countTicks(23)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(countTicks(180)).toEqual([0, 50, 100, 150, 200]);
  });
});

describe('palette', () => {
  it('writes on each colour in black or white, whichever reads at 4.5:1 or better', () => {
    const lum = (hex: string) => {
      const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    for (const colour of OKABE_ITO) {
      const [a, b] = [lum(colour), lum(textColorOn(colour))].sort((x, y) => y - x);
      expect((a + 0.05) / (b + 0.05)).toBeGreaterThanOrEqual(4.5);
    }
  });
});
