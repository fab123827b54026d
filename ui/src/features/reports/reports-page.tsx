import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DESK_MESSAGES, formatBusinessDays, formatElapsed, MESSAGES, parseUsDate, REPORT_KINDS, REPORT_PERIODS } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { FieldFrame, fieldId, SelectField, TextField } from '../../components/ui/form-field';
import { Loading } from '../../components/ui/loading';
import { saveBlob } from '../../lib/download-blob';
import { displayDate } from '../../lib/format';
import { officeToday } from '../../lib/office';
import { queryKeys } from '../../lib/query-keys';
import { useLiveQueries } from '../../lib/use-live-queries';
import { ChartSection } from './report-section';
import {
  backlogPivot, days, missedDeadlinesPivot, requestersPivot, timeInStatusPivot, turnaroundPivot, volumesPivot, shortKind,
} from './report-data';
import { periodLabel, presetRange, RANGE_PRESETS, usDate, type RangePreset } from './report-range';
import { downloadReports, getReports, REPORTS_LIVE_EVENT_KINDS, reportsFileName, type Reports, type ReportsQuery } from './reports-api';

const DEFAULT_PRESET: RangePreset = 'Last quarter';

function initialQuery(): ReportsQuery {
  return { ...presetRange(DEFAULT_PRESET, officeToday()), period: 'month' };
}

/** `/manage/reports`: volumes, turnaround, where the time goes, the backlog, missed deadlines and who asks. */
export function ReportsPage() {
  const [query, setQuery] = useState<ReportsQuery>(initialQuery);
  const [preset, setPreset] = useState<RangePreset | null>(DEFAULT_PRESET);
  const [form, setForm] = useState({ from: usDate(query.from), to: usDate(query.to) });
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});
  const [downloadFailed, setDownloadFailed] = useState(false);
  const [downloading, setDownloading] = useState(false);

  const reports = useQuery({
    queryKey: queryKeys.reports(query),
    queryFn: ({ signal }) => getReports(query, signal),
    placeholderData: keepPreviousData,
  });
  // A status change or a clock's reminder anywhere can move every figure: the stream says when (no polling).
  useLiveQueries([queryKeys.reportsAll], { kinds: REPORTS_LIVE_EVENT_KINDS });

  function choosePreset(choice: RangePreset) {
    const range = presetRange(choice, officeToday());
    setPreset(choice);
    setErrors({});
    setForm({ from: usDate(range.from), to: usDate(range.to) });
    setQuery((q) => ({ ...q, ...range }));
  }

  function applyDates(event: FormEvent) {
    event.preventDefault();
    const from = parseUsDate(form.from);
    const to = parseUsDate(form.to);
    const found: typeof errors = {};
    if (!from) found.from = MESSAGES.dateInputInvalid;
    if (!to) found.to = MESSAGES.dateInputInvalid;
    if (from && to && from > to) found.from = DESK_MESSAGES.fromAfterTo;
    setErrors(found);
    if (!from || !to || found.from || found.to) return;
    setPreset(null);
    setQuery((q) => ({ ...q, from, to }));
  }

  async function download() {
    setDownloadFailed(false);
    setDownloading(true);
    try { saveBlob(await downloadReports(query), reportsFileName(query)); } catch { setDownloadFailed(true); } finally { setDownloading(false); }
  }

  return (
    <section className="page reports">
      <h1>Reports</h1>
      <form className="card reports__filters" onSubmit={applyDates} noValidate aria-label="Report filters">
        <div className="button-row" role="group" aria-label="Date range">
          {RANGE_PRESETS.map((choice) => (
            <button key={choice} type="button" className="button button--small button--secondary" aria-pressed={preset === choice}
              onClick={() => choosePreset(choice)}>{choice}</button>
          ))}
        </div>
        <div className="filters">
          <TextField name="reportFrom" label="From" placeholder="mm/dd/yyyy" value={form.from} error={errors.from}
            onChange={(event) => setForm((f) => ({ ...f, from: event.target.value }))} />
          <TextField name="reportTo" label="To" placeholder="mm/dd/yyyy" value={form.to} error={errors.to}
            onChange={(event) => setForm((f) => ({ ...f, to: event.target.value }))} />
          <SelectField name="reportKind" label="Request Type" options={REPORT_KINDS} placeholder="All Request Types" value={query.kind ?? ''}
            onChange={(event) => {
              const kind = REPORT_KINDS.find((k) => k === event.target.value);
              setQuery(({ kind: _old, ...q }) => (kind ? { ...q, kind } : q));
            }} />
          <FieldFrame name="reportPeriod" label="Per">
            <select id={fieldId('reportPeriod')} name="reportPeriod" className="field__control" value={query.period ?? 'month'}
              onChange={(event) => setQuery((q) => ({ ...q, period: REPORT_PERIODS.find((p) => p === event.target.value) ?? 'month' }))}>
              {REPORT_PERIODS.map((p) => <option key={p} value={p}>{p === 'week' ? 'Week' : 'Month'}</option>)}
            </select>
          </FieldFrame>
        </div>
        <div className="button-row">
          <button type="submit" className="button">Show</button>
          <button type="button" className="button button--secondary" onClick={download} disabled={downloading || !reports.data}>Download (xlsx)</button>
        </div>
      </form>
      {downloadFailed && <Alert kind="error">The download failed. Try again.</Alert>}
      {reports.status === 'pending' && <Loading />}
      {reports.status === 'error' && <Alert kind="error">The reports could not be loaded. Try again.</Alert>}
      {reports.data && <ReportSections report={reports.data} />}
    </section>
  );
}

function ReportSections({ report }: { report: Reports }) {
  const per = report.filter.period;
  const received = volumesPivot(report, 'received');
  const completed = volumesPivot(report, 'completed');
  const turnaround = turnaroundPivot(report);
  return (
    <>
      <p className="reports__summary" aria-live="polite">
        {displayDate(`${report.filter.from}T12:00:00Z`)} to {displayDate(`${report.filter.to}T12:00:00Z`)}
        {report.filter.kind ? `, ${report.filter.kind}` : ', all request types'}, per {per}.
      </p>
      <div className="reports__grid">
        <ChartSection id="received" title="Requests received" reading={report.volumes.reading} pivot={received} indexBy="period" total
          wide={received.keys.length > 3} chart={{ valueLegend: 'Requests', counts: true }} />
        <ChartSection id="completed" title="Requests completed" reading={`${report.volumes.completed} completed in the range`} pivot={completed}
          indexBy="period" total wide={completed.keys.length > 3} chart={{ valueLegend: 'Requests', counts: true }} />
        <ChartSection id="turnaround" title="Turnaround" reading={report.turnaround.reading} pivot={turnaround} indexBy="period"
          chart={{ valueLegend: 'Business days (median)', groupMode: 'grouped', whisker: turnaround.p90 }}
          table={<TurnaroundTable report={report} />} />
        <ChartSection id="time-in-status" title="Where the time goes" reading={report.timeInStatus.reading} pivot={timeInStatusPivot(report)}
          indexBy="status" format={days} chart={{ valueLegend: 'Business days', layout: 'horizontal' }}
          extra={[{ header: 'Requests', cell: (row) => String(report.timeInStatus.rows.find((r) => r.status === row.status)?.requests ?? 0) },
            { header: 'Average per request', cell: (row) => days(report.timeInStatus.rows.find((r) => r.status === row.status)?.averageBusinessDays) }]} />
        <ChartSection id="backlog" title="Open requests by age" reading={report.backlog.reading} pivot={backlogPivot(report)} indexBy="band" total
          chart={{ valueLegend: 'Open requests', layout: 'horizontal', counts: true }} wide>
          <OldestTable report={report} />
        </ChartSection>
        <ChartSection id="missed-deadlines" title="Deadlines missed" reading={report.missedDeadlines.reading} pivot={missedDeadlinesPivot(report)}
          indexBy="period" total chart={{ valueLegend: 'Clock events', counts: true }} />
        <ChartSection id="top-companies" title="Top requesting companies" reading={report.topRequesters.reading}
          pivot={requestersPivot(report.topRequesters.companies, 'Company')} indexBy="name" total chart={{ valueLegend: 'Requests', layout: 'horizontal', counts: true }} />
        <ChartSection id="top-departments" title="Top requesting departments" reading={topDepartmentReading(report)}
          pivot={requestersPivot(report.topRequesters.departments, 'Department')} indexBy="name" total chart={{ valueLegend: 'Requests', layout: 'horizontal', counts: true }} />
        <InstantIssues report={report} />
      </div>
    </>
  );
}

function topDepartmentReading(report: Reports): string {
  const top = report.topRequesters.departments[0];
  return top ? `${top.name} asked most among departments: ${top.requests} requests` : 'No requests from departments in this range';
}

/** Certificates a rule issued beside those people decided: how many, and how long each took (medians). */
function InstantIssues({ report }: { report: Reports }) {
  const { rule, office, certificates, sharePercent, reading } = report.instantIssues;
  const rows = [
    { key: 'rule', label: 'Issued instantly (a rule)', share: sharePercent, ...rule },
    { key: 'office', label: 'Decided by the office', share: certificates ? Math.round((100 - sharePercent) * 10) / 10 : 0, ...office },
  ];
  return (
    <section className="report card" aria-labelledby="instant-issues-heading" data-report="instant-issues">
      <h2 id="instant-issues-heading">Certificates issued instantly</h2>
      <p id="instant-issues-reading" className="report__reading">{reading}</p>
      <div className="table-wrap report__table" role="region" aria-label="Certificates issued instantly: table" tabIndex={0}>
        <table className="data-table">
          <caption>Certificates issued instantly and by the office (completed as Approved in the range)</caption>
          <thead>
            <tr>
              <th scope="col">Issued</th><th scope="col" className="cell--number">Certificates</th><th scope="col" className="cell--number">Share</th>
              <th scope="col" className="cell--number">Median (business days)</th><th scope="col" className="cell--number">Median (elapsed)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row" data-label="Issued">{r.label}</th>
                <td data-label="Certificates" className="cell--number">{r.issued}</td>
                <td data-label="Share" className="cell--number">{`${r.share} %`}</td>
                <td data-label="Median (business days)" className="cell--number">{r.median === null ? '—' : formatBusinessDays(r.median)}</td>
                <td data-label="Median (elapsed)" className="cell--number">{r.medianElapsedSeconds === null ? '—' : formatElapsed(r.medianElapsedSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function TurnaroundTable({ report }: { report: Reports }) {
  const rows = report.turnaround.rows.filter((r) => r.completed > 0);
  const per = report.filter.period;
  return (
    <div className="table-wrap report__table" role="region" aria-label="Turnaround: table" tabIndex={0}>
      <table className="data-table">
        <caption>Turnaround (business days from first submission to the final status)</caption>
        <thead>
          <tr>
            <th scope="col">Period</th><th scope="col">Request Type</th><th scope="col" className="cell--number">Completed</th>
            <th scope="col" className="cell--number">Median</th><th scope="col" className="cell--number">90th percentile</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.period}-${r.kind}`}>
              <th scope="row" data-label="Period">{periodLabel(r.period, per)}</th>
              <td data-label="Request Type">{shortKind(r.kind)}</td>
              <td data-label="Completed" className="cell--number">{r.completed}</td>
              <td data-label="Median" className="cell--number">{formatBusinessDays(r.median)}</td>
              <td data-label="90th percentile" className="cell--number">{formatBusinessDays(r.p90)}</td>
            </tr>
          ))}
          {report.turnaround.byKind.map((r) => (
            <tr key={`all-${r.kind}`} className="report__total-row">
              <th scope="row" data-label="Period">Whole range</th>
              <td data-label="Request Type">{shortKind(r.kind)}</td>
              <td data-label="Completed" className="cell--number">{r.completed}</td>
              <td data-label="Median" className="cell--number">{formatBusinessDays(r.median)}</td>
              <td data-label="90th percentile" className="cell--number">{formatBusinessDays(r.p90)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}


function OldestTable({ report }: { report: Reports }) {
  if (!report.backlog.oldest.length) return null;
  return (
    <div className="table-wrap" role="region" aria-label="Oldest open requests: table" tabIndex={0}>
      <table className="data-table">
        <caption>Oldest open requests</caption>
        <thead>
          <tr>
            <th scope="col">Request</th><th scope="col">Request Type</th><th scope="col">Status</th><th scope="col">Submitted</th>
            <th scope="col" className="cell--number">Age (business days)</th><th scope="col">Company</th>
          </tr>
        </thead>
        <tbody>
          {report.backlog.oldest.map((r) => (
            <tr key={r.id}>
              <th scope="row" data-label="Request"><Link to={r.viewPath}>{r.requestNumber ?? r.id}</Link></th>
              <td data-label="Request Type">{shortKind(r.kind)}</td>
              <td data-label="Status">{r.status}</td>
              <td data-label="Submitted">{displayDate(String(r.firstSubmittedAt))}</td>
              <td data-label="Age (business days)" className="cell--number">{formatBusinessDays(r.ageBusinessDays)}</td>
              <td data-label="Company">{r.requesterCompany ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
