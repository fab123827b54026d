import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { dayToServerIso, DESK_MESSAGES, exportFileName, MESSAGES, parseUsDate, REQUEST_TYPE_FILTERS } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { DataTable, type Column } from '../../components/ui/data-table';
import { SelectField, TextField } from '../../components/ui/form-field';
import { Loading } from '../../components/ui/loading';
import { saveBlob } from '../../lib/download-blob';
import { displayDate, displayDateTime } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { downloadExport, getExports, useStartExport, type RequestExport } from './exports-api';

/** `/manage/export` (spec 1 §2, §5; spec 2 §7.11): export requests to xlsx; past exports with progress and download. */
export function ExportPage() {
  // While an export is being written its progress is read again every second.
  const exports = useQuery({
    queryKey: queryKeys.exports,
    queryFn: ({ signal }) => getExports(signal),
    refetchInterval: (query) => (query.state.data?.some((e) => e.state === 'running') ? 1000 : false),
  });
  const [values, setValues] = useState({ dateFrom: '', dateTo: '', filterByType: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState(false);
  const start = useStartExport();
  /** The export this page started: the browser downloads it by itself once it is written (spec 2 §7.11). */
  const [awaited, setAwaited] = useState<number | null>(null);

  const finished = exports.data?.find((e) => e.id === awaited && e.state !== 'running');
  useEffect(() => {
    if (!finished) return;
    setAwaited(null);
    if (finished.state === 'done') void download(finished);
  }, [finished]);

  const set = (name: keyof typeof values) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    const days: Record<string, string> = {};
    for (const name of ['dateFrom', 'dateTo'] as const) {
      if (!values[name].trim()) continue;
      const day = parseUsDate(values[name]);
      if (!day) found[name] = MESSAGES.dateInputInvalid;
      else days[name] = day;
    }
    if (days.dateFrom && days.dateTo && days.dateFrom > days.dateTo) found.dateFrom = DESK_MESSAGES.fromAfterTo;
    setErrors(found);
    setFailed(false);
    if (Object.keys(found).length) return;
    // the select offers the domain's filters only; the contract takes nothing else
    const filterByType = REQUEST_TYPE_FILTERS.find((filter) => filter === values.filterByType);
    start.mutate({
      filename: exportFileName(new Date()),
      ...(days.dateFrom ? { dateFrom: dayToServerIso(days.dateFrom) } : {}),
      ...(days.dateTo ? { dateTo: dayToServerIso(days.dateTo) } : {}),
      ...(filterByType ? { filterByType } : {}),
    }, { onSuccess: (started) => setAwaited(started.id), onError: () => setFailed(true) });
  }

  async function download(row: RequestExport) {
    try { saveBlob(await downloadExport(row.id), row.filename); } catch { setFailed(true); }
  }

  const columns: Column<RequestExport>[] = [
    { header: 'File', cell: (e) => e.filename },
    { header: 'Created', cell: (e) => displayDateTime(e.createdAt), className: 'cell--nowrap' },
    { header: 'Dates', cell: (e) => (e.dateFrom || e.dateTo ? `${displayDate(e.dateFrom)} – ${displayDate(e.dateTo)}` : 'All') },
    { header: 'Type', cell: (e) => e.filterByType ?? 'All Request Types' },
    {
      header: 'Rows', cell: (e) => (e.state === 'running'
        ? <><progress className="progress" max={Math.max(e.rowsTotal, 1)} value={e.rowsWritten} aria-label={`Export ${e.filename} progress`} /> {e.rowsWritten.toLocaleString('en-US')} of {e.rowsTotal.toLocaleString('en-US')}</>
        : e.state === 'failed' ? 'Failed' : e.rowsWritten.toLocaleString('en-US')),
    },
    { header: 'Action', className: 'cell--action', cell: (e) => (e.state === 'done'
      ? <button type="button" className="button button--small button--secondary" onClick={() => download(e)} aria-label={`Download ${e.filename}`}>Download</button> : null) },
  ];

  return (
    <section className="page">
      <h1>Export Requests</h1>
      <form className="card" onSubmit={submit} noValidate aria-label="Export filters">
        <div className="filters">
          <TextField name="dateFrom" label="Submitted From" placeholder="mm/dd/yyyy" value={values.dateFrom} onChange={set('dateFrom')} error={errors.dateFrom} />
          <TextField name="dateTo" label="Submitted To" placeholder="mm/dd/yyyy" value={values.dateTo} onChange={set('dateTo')} error={errors.dateTo} />
          <SelectField name="filterByType" label="Request Type" options={REQUEST_TYPE_FILTERS} placeholder="All Request Types" value={values.filterByType} onChange={set('filterByType')} />
        </div>
        <div className="button-row"><button type="submit" className="button" disabled={start.isPending}>Export</button></div>
      </form>
      {(failed || exports.status === 'error') && <Alert kind="error">{DESK_MESSAGES.exportFailed}</Alert>}
      <section aria-labelledby="exports-heading">
        <h2 id="exports-heading">Exports</h2>
        {exports.status === 'pending' && <Loading />}
        {exports.data && (exports.data.length
          ? <DataTable columns={columns} rows={exports.data} rowKey={(e) => e.id} labelledBy="exports-heading" />
          : <p className="empty">{DESK_MESSAGES.noExports}</p>)}
        {exports.data?.[0]?.state === 'failed' && <Alert kind="error">{DESK_MESSAGES.exportFailed}</Alert>}
      </section>
    </section>
  );
}
