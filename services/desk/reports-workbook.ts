/**
 * The reports as an xlsx download: one sheet per chart, the filter in the header rows, then the chart's reading and
 * its table with the same numbers as the page (GET /reports answers them from the same computation).
 */
import type { Reports } from '../../contract/reports.schema';
import { formatOfficeDateTime } from '../../domain';

type Cell = string | number | null;
interface Sheet { name: string; title: string; reading: string; header: string[]; rows: Cell[][] }

const round1 = (n: number) => Math.round(n * 10) / 10;
/** Seconds as hours with four decimals: an instant issue takes seconds, which two decimals of an hour would hide. */
const hours = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / 3600) * 10_000) / 10_000);

/** The sheets, as plain rows: the workbook writer and the tests read the same structure. */
function reportSheets(r: Reports): Sheet[] {
  return [
    {
      name: 'Volumes', title: 'Requests received and completed', reading: r.volumes.reading,
      header: ['Period', 'Kind', 'Received', 'Completed'],
      rows: r.volumes.rows.map((x) => [x.period, x.kind, x.received, x.completed]),
    },
    {
      name: 'Turnaround', title: 'Turnaround, first submission to final status (business days)', reading: r.turnaround.reading,
      header: ['Period', 'Kind', 'Completed', 'Median', '90th percentile'],
      rows: [
        ...r.turnaround.rows.map((x) => [x.period, x.kind, x.completed, x.median, x.p90]),
        ...r.turnaround.byKind.map((x) => ['Whole range', x.kind, x.completed, x.median, x.p90]),
        ['Whole range', 'All kinds', r.turnaround.completed, r.turnaround.median, r.turnaround.p90],
      ],
    },
    {
      name: 'Time in status', title: 'Where the time goes (business days within the range)', reading: r.timeInStatus.reading,
      header: ['Status', 'Waiting on', 'Business days', 'Requests', 'Average per request'],
      rows: [
        ...r.timeInStatus.rows.map((x) => [x.status, x.waitingOn, x.businessDays, x.requests, x.averageBusinessDays]),
        ['All statuses', 'office', r.timeInStatus.office, null, null],
        ['All statuses', 'requester', r.timeInStatus.requester, null, null],
      ],
    },
    {
      name: 'Backlog', title: `Open requests by age (business days since first submission), as of ${String(r.backlog.asOf)}`, reading: r.backlog.reading,
      header: ['Age band', 'Status', 'Requests'],
      rows: [
        ...r.backlog.rows.map((x) => [r.backlog.bands.find((b) => b.key === x.band)?.label ?? x.band, x.status, x.count]),
        [],
        ['Oldest open requests'],
        ['Request number', 'Kind', 'Status', 'First submitted', 'Age (business days)', 'Company'],
        ...r.backlog.oldest.map((o) => [o.requestNumber, o.kind, o.status, formatOfficeDateTime(o.firstSubmittedAt, r.filter.timeZone), o.ageBusinessDays, o.requesterCompany]),
      ],
    },
    {
      name: 'Missed deadlines', title: 'Reminders, escalations and automatic closes that fired', reading: r.missedDeadlines.reading,
      header: ['Period', 'Reminders', 'Escalations', 'Closed without an answer'],
      rows: r.missedDeadlines.rows.map((x) => [x.period, x.reminders, x.escalations, x.autoClosed]),
    },
    {
      name: 'Top requesters', title: 'Who asks (requests received in the range)', reading: r.topRequesters.reading,
      header: ['Group', 'Name', 'Requests', 'Completed'],
      rows: [
        ...r.topRequesters.companies.map((x) => ['Company', x.name, x.requests, x.completed]),
        ...r.topRequesters.departments.map((x) => ['Department', x.name, x.requests, x.completed]),
      ],
    },
    {
      name: 'Instant certificates', title: 'Certificates issued instantly by a rule and by the office (completed as Approved in the range)',
      reading: r.instantIssues.reading,
      header: ['Issued by', 'Certificates', 'Share (%)', 'Median (business days)', 'Median elapsed (hours)'],
      rows: [
        ['A rule, instantly', r.instantIssues.rule.issued, r.instantIssues.sharePercent, r.instantIssues.rule.median, hours(r.instantIssues.rule.medianElapsedSeconds)],
        ['The office', r.instantIssues.office.issued, r.instantIssues.certificates ? round1(100 - r.instantIssues.sharePercent) : 0,
          r.instantIssues.office.median, hours(r.instantIssues.office.medianElapsedSeconds)],
        ['All certificates', r.instantIssues.certificates, null, null, null],
      ],
    },
  ];
}

/** The header rows every sheet starts with: what was asked. */
const FILTER_ROWS = 4;

export async function reportsWorkbook(r: Reports): Promise<Buffer> {
  // Loaded on demand: exceljs costs every API process megabytes of heap (services/requests/request-export-sheet.ts).
  const { default: Excel } = await import('exceljs');
  const book = new Excel.Workbook();
  book.created = new Date(String(r.filter.generatedAt));
  for (const sheet of reportSheets(r)) {
    const ws = book.addWorksheet(sheet.name);
    ws.addRow([sheet.title]).font = { bold: true, size: 13 };
    ws.addRow(['From', r.filter.from, 'To', r.filter.to, 'Time zone', r.filter.timeZone]);
    ws.addRow(['Kind', r.filter.kind ?? 'All kinds', 'Period', r.filter.period, 'Generated', formatOfficeDateTime(r.filter.generatedAt, r.filter.timeZone)]);
    ws.addRow([sheet.reading]).font = { italic: true };
    ws.addRow([]);
    ws.addRow(sheet.header).font = { bold: true };
    for (const row of sheet.rows) ws.addRow(row);
    ws.columns.forEach((column, i) => { column.width = i < 2 ? 34 : 18; });
    ws.views = [{ state: 'frozen', ySplit: FILTER_ROWS + 2 }];
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The download's file name. */
export const reportsFileName = (r: Reports) => `reports-${r.filter.from}-to-${r.filter.to}.xlsx`;
