import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { ROSTER_MESSAGES, ROSTER_PAGE_SIZE, rosterKindsFor, type RosterKind } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { DataTable, type Column } from '../../components/ui/data-table';
import { Loading } from '../../components/ui/loading';
import { Pager } from '../../components/ui/pager';
import { useUser } from '../../lib/auth';
import { ApiError } from '../../lib/api-error';
import { saveBlob } from '../../lib/download-blob';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { downloadTemplate, getRoster, getRosters, useFixRosterRow, useSubmitRoster, useUploadRoster, type Roster, type RosterRow } from './rosters-api';

const KIND_LABELS: Record<RosterKind, string> = {
  credentialing: 'Claim History and Insurance Verification (clinicians)',
  Clinician: 'Certificate: Clinician', Provider: 'Certificate: Provider', 'Auto Liability': 'Certificate: Auto Liability',
  'Contracts/Lease': 'Certificate: Contracts/Lease', Event: 'Certificate: Event', Property: 'Certificate: Property',
};
const STATUS_LABELS: Record<RosterRow['status'], string> = {
  invalid: 'Needs fixing', valid: 'Valid, waiting for room', draft: 'Draft', queued: 'Queued', submitting: 'Submitting', submitted: 'Submitted', refused: 'Not submitted',
};
const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : 'The upload failed: please try again.');

/** `/rosters`: download a template, upload a roster, and the caller's rosters. */
export function RostersPage() {
  const { id } = useParams();
  return id ? <RosterView id={Number(id)} /> : <RosterUpload />;
}

function RosterUpload() {
  const user = useUser();
  const kinds = rosterKindsFor(user.isExternal);
  const [kind, setKind] = useState<RosterKind>(kinds[0]);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useUploadRoster();
  const navigate = useNavigate();
  const rosters = useQuery({ queryKey: queryKeys.rosters.all, queryFn: ({ signal }) => getRosters(signal) });

  async function download(format: 'xlsx' | 'csv') {
    saveBlob(await downloadTemplate(kind, format), `roster-template-${kind.toLowerCase().replace(/[^a-z]+/g, '-')}.${format}`);
  }
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) { setError(ROSTER_MESSAGES.fileRequired); return; }
    setError(null);
    try {
      const roster = await upload.mutateAsync({ kind, file });
      navigate(paths.roster.getHref(roster.id), { state: { message: roster.message } });
    } catch (e) {
      setError(messageOf(e));
    }
  }

  return (
    <section className="page">
      <h1>Rosters</h1>
      <p>Request many at once: download the template of a request type, fill in one row per request, and upload it. Each row is checked as the form
        checks it; valid rows become your drafts, and rows with errors can be fixed here.</p>
      <form className="card" onSubmit={submit} noValidate aria-labelledby="roster-upload-heading">
        <h2 id="roster-upload-heading">Upload a roster</h2>
        <div className="field">
          <label className="field__label" htmlFor="roster-kind">Request type</label>
          <select id="roster-kind" className="field__control" value={kind} onChange={(e) => setKind(e.target.value as RosterKind)}>
            {kinds.map((k) => <option key={k} value={k}>{KIND_LABELS[k]}</option>)}
          </select>
        </div>
        <div className="button-row">
          <button type="button" className="button button--secondary" onClick={() => void download('xlsx')}>Download template (Excel)</button>
          <button type="button" className="button button--secondary" onClick={() => void download('csv')}>Download template (CSV)</button>
        </div>
        <div className={`field${error ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor="roster-file">Roster file (.xlsx or .csv)</label>
          <input id="roster-file" type="file" className="field__control" accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            aria-invalid={error ? true : undefined} aria-describedby={error ? 'roster-file-error' : undefined}
            onChange={(e) => { setFile(e.target.files?.[0] ?? null); setError(null); }} />
          {error && <p id="roster-file-error" className="error-text" role="alert">{error}</p>}
        </div>
        <div className="button-row"><button type="submit" className="button" disabled={upload.isPending}>{upload.isPending ? 'Checking…' : 'Upload'}</button></div>
      </form>
      <section aria-labelledby="rosters-heading">
        <h2 id="rosters-heading">Your rosters</h2>
        {rosters.status === 'pending' && <Loading />}
        {rosters.data && (rosters.data.data.length ? (
          <ul className="roster-list">
            {rosters.data.data.map((r) => (
              <li key={r.id}><Link to={paths.roster.getHref(r.id)}>{r.fileName}</Link> · {KIND_LABELS[r.kind]} · {r.total} rows, {r.submitted} submitted, {r.invalid} to fix</li>
            ))}
          </ul>
        ) : <p className="empty">No rosters uploaded yet.</p>)}
      </section>
    </section>
  );
}

function RosterView({ id }: { id: number }) {
  const [skip, setSkip] = useState(0);
  const [onlyErrors, setOnlyErrors] = useState(false);
  const status = onlyErrors ? 'invalid' as const : undefined;
  const roster = useQuery({
    queryKey: [...queryKeys.rosters.detail(id), skip, status ?? 'all'],
    queryFn: ({ signal }) => getRoster(id, { skip, status }, signal),
    // While rows are queued, the progress is read again each second (the rows' states live in PostgreSQL).
    refetchInterval: (query) => (query.state.data?.submitting ? 1000 : false),
  });
  const submitting = useSubmitRoster(id);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const message = (useLocation().state as { message?: string | null } | null)?.message;

  if (roster.status === 'pending') return <section className="page"><Loading /></section>;
  if (roster.status === 'error') return <section className="page"><Alert kind="error">{messageOf(roster.error)}</Alert></section>;
  const r = roster.data;
  const submittable = r.counts.valid + r.counts.draft + r.counts.refused;
  const done = r.counts.submitted + r.counts.refused;
  const run = done + r.counts.queued + r.counts.submitting;
  return (
    <section className="page">
      <p><Link to={paths.rosters.getHref()}>All rosters</Link></p>
      <h1>Roster: {r.fileName}</h1>
      <p>{KIND_LABELS[r.kind]} · {r.counts.total} rows: {r.counts.draft} drafts, {r.counts.submitted} submitted, {r.counts.invalid} to fix
        {r.counts.valid ? `, ${r.counts.valid} waiting for room` : ''}{r.counts.refused ? `, ${r.counts.refused} not submitted` : ''}.</p>
      {message && <Alert kind="info">{message}</Alert>}
      <div className="button-row">
        <button type="button" className="button" disabled={r.submitting || submittable === 0 || submitting.isPending}
          onClick={() => submitting.mutate(undefined, { onError: (e) => setSubmitError(messageOf(e)) })}>Submit all valid ({submittable})</button>
      </div>
      {submitError && <Alert kind="error">{submitError}</Alert>}
      {(r.submitting || (run > 0 && done > 0)) && (
        <p role="status">
          <label htmlFor="roster-progress">{r.submitting ? 'Submitting' : 'Submitted'}: {done} of {run}</label>{' '}
          <progress id="roster-progress" className="progress" max={run} value={done} />
        </p>
      )}
      <div className="field field--checkbox">
        <input id="only-errors" type="checkbox" checked={onlyErrors} onChange={(e) => { setOnlyErrors(e.target.checked); setSkip(0); }} />
        <label htmlFor="only-errors">Only rows to fix</label>
      </div>
      <h2 id="roster-rows-heading">Rows</h2>
      <div className="table-scroll" tabIndex={0} aria-label="Roster rows">
        <DataTable columns={rowColumns(r)} rows={r.rows.data} rowKey={(row) => row.id} labelledBy="roster-rows-heading" />
      </div>
      <Pager label="roster rows" total={r.rows.total} skip={skip} pageSize={ROSTER_PAGE_SIZE} onChange={setSkip} />
    </section>
  );
}

const editHref = (r: Roster, requestId: number) =>
  (r.kind === 'credentialing' ? paths.credentialing.edit : paths.certificate.edit).getHref(requestId);
const viewHref = (r: Roster, requestId: number) =>
  (r.kind === 'credentialing' ? paths.credentialing.view : paths.certificate.view).getHref(requestId);

function rowColumns(r: Roster): Column<RosterRow>[] {
  const label = (name: string) => r.columns.find((c) => c.name === name)?.label ?? name;
  return [
    { header: 'Row', cell: (row) => row.line },
    { header: 'Name', cell: (row) => [row.values.lastName, row.values.firstName].filter(Boolean).join(', ') || row.values[r.columns[0].name] || '—' },
    { header: 'State', cell: (row) => STATUS_LABELS[row.status] },
    {
      header: 'Errors and fixes',
      cell: (row) => (row.status === 'invalid'
        ? <RowFix rosterId={r.id} row={row} label={label} />
        : <>{row.outcome && <span>{row.outcome} </span>}
          {row.requestId && (row.status === 'submitted'
            ? <Link to={viewHref(r, row.requestId)}>View request</Link>
            : <Link to={editHref(r, row.requestId)}>Open draft</Link>)}</>),
    },
  ];
}

/** The cells of one row the form's rules refused, editable in place; "Check again" re-checks the row (a valid row becomes a draft). */
function RowFix({ rosterId, row, label }: { rosterId: number; row: RosterRow; label: (name: string) => string }) {
  const fields = Object.keys(row.errors);
  // What was typed here; a field not touched shows the row's stored cell (a re-check may name other fields).
  const [edits, setEdits] = useState<Record<string, string>>({});
  const valueOf = (field: string) => edits[field] ?? row.values[field] ?? '';
  const fix = useFixRosterRow(rosterId);
  const [failed, setFailed] = useState<string | null>(null);
  const idOf = (field: string) => `row-${row.id}-${field}`;
  return (
    <form className="roster-fix" noValidate aria-label={`Fix row ${row.line}`}
      onSubmit={(e) => { e.preventDefault(); fix.mutate({ rowId: row.id, values: edits }, { onError: (error) => setFailed(messageOf(error)) }); }}>
      {fields.map((field) => (
        <div key={field} className="field field--invalid">
          <label className="field__label" htmlFor={idOf(field)}>{label(field)}</label>
          <input id={idOf(field)} className="field__control" value={valueOf(field)} aria-invalid="true" aria-describedby={`${idOf(field)}-error`}
            onChange={(e) => setEdits({ ...edits, [field]: e.target.value })} />
          <p id={`${idOf(field)}-error`} className="error-text">{row.errors[field]}</p>
        </div>
      ))}
      {row.outcome && <p className="error-text">{row.outcome}</p>}
      {failed && <p className="error-text" role="alert">{failed}</p>}
      <button type="submit" className="button button--small" disabled={fix.isPending}>Check again</button>
    </form>
  );
}
