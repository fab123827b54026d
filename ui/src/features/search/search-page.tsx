import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  approvalDateLabel, type RequestStatus, dayToServerIso, DESK_MESSAGES, MESSAGES, parseUsDate, SEARCH_DEFAULT_LIMIT, searchErrors, type SearchParams,
} from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { DataTable, type Column } from '../../components/ui/data-table';
import { TextField } from '../../components/ui/form-field';
import { displayDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { searchRequests, type SearchRow } from './search-api';

const TEXT_FILTERS: [keyof SearchParams, string][] = [
  ['clinLastName', 'Clinician Last Name'], ['reqstrLastName', 'Requester Last Name'], ['reqstrCompany', 'Requester Company'],
  ['reqstrEmail', 'Requester Email'], ['fleetVIN', 'Fleet VIN'], ['plateNumber', 'Plate Number'], ['driverName', 'Driver Name'],
];

const viewHref = (row: SearchRow) => (row.requestType === 'certificate' ? paths.certificate.view.getHref(row.id) : paths.credentialing.view.getHref(row.id));

/** Completed date for a completed request, an em dash for a closed one, otherwise PENDING (spec 1 §4). */
const completion = (row: SearchRow) => approvalDateLabel(row.status as RequestStatus, row.completedDate, displayDate);

const COLUMNS: Column<SearchRow>[] = [
  { header: 'Request Number', cell: (r) => <Link to={viewHref(r)}>{r.requestNumber ?? r.id}</Link> },
  { header: 'Requester Name', cell: (r) => r.requesterName ?? '—' },
  { header: 'Request Type', cell: (r) => r.typeLabel },
  { header: 'Submission Date', cell: (r) => displayDate(r.submitDate), className: 'cell--nowrap' },
  { header: 'Completion Date', cell: completion, className: 'cell--nowrap' },
  { header: 'Employer Type', cell: (r) => r.employerType },
  { header: 'Status', cell: (r) => r.status },
];

/** `/search`: Search Submission History (spec 1 §2, §5; spec 2 §7.5). */
export function SearchPage() {
  const [values, setValues] = useState<Record<string, string>>({ limit: String(SEARCH_DEFAULT_LIMIT) });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [results, setResults] = useState<SearchRow[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (name: string) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    const query: Record<string, string | number> = {};
    for (const [name] of TEXT_FILTERS) if (values[name]?.trim()) query[name] = values[name].trim();
    for (const name of ['searchFrom', 'searchTo']) {
      const text = values[name]?.trim();
      if (!text) continue;
      const day = parseUsDate(text);
      if (!day) found[name] = MESSAGES.dateInputInvalid;
      else query[name] = dayToServerIso(day);
    }
    const limit = values.limit?.trim() ? values.limit.trim() : String(SEARCH_DEFAULT_LIMIT);
    Object.assign(found, searchErrors({ ...query, limit }), found);
    setErrors(found);
    setFailed(false);
    if (Object.keys(found).length) { setResults(null); return; }
    query.limit = Number(limit);
    setBusy(true);
    try {
      setResults((await searchRequests(query)).data);
    } catch {
      setFailed(true);
      setResults(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="page">
      <h1>Search Submission History</h1>
      <form className="card" onSubmit={submit} noValidate aria-label="Search filters">
        <div className="filters">
          <TextField name="searchFrom" label="Submitted From" placeholder="mm/dd/yyyy" value={values.searchFrom ?? ''} onChange={set('searchFrom')} error={errors.searchFrom} />
          <TextField name="searchTo" label="Submitted To" placeholder="mm/dd/yyyy" value={values.searchTo ?? ''} onChange={set('searchTo')} error={errors.searchTo} />
          {TEXT_FILTERS.map(([name, label]) => (
            <TextField key={name} name={name} label={label} maxLength={200} value={values[name] ?? ''} onChange={set(name)} />
          ))}
          <TextField name="limit" label="Result Count" type="number" min={1} value={values.limit ?? ''} onChange={set('limit')} error={errors.limit} />
        </div>
        {errors.search && <Alert kind="error">{errors.search}</Alert>}
        <div className="button-row">
          <button type="submit" className="button" disabled={busy}>{busy ? 'Searching…' : 'Search'}</button>
          <button type="button" className="button button--secondary" onClick={() => { setValues({ limit: String(SEARCH_DEFAULT_LIMIT) }); setErrors({}); setResults(null); }}>Clear</button>
        </div>
      </form>
      {failed && <Alert kind="error">{DESK_MESSAGES.searchFailed}</Alert>}
      {results && (
        <section aria-labelledby="results-heading">
          <h2 id="results-heading">Results ({results.length})</h2>
          {results.length ? <DataTable columns={COLUMNS} rows={results} rowKey={(r) => r.id} labelledBy="results-heading" />
            : <p className="empty">{DESK_MESSAGES.searchNone}</p>}
        </section>
      )}
    </section>
  );
}
