import { useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DESK_MESSAGES, formatUsd, STALE_LETTER_LABEL } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { DataTable, type Column } from '../../components/ui/data-table';
import { Loading } from '../../components/ui/loading';
import { ApiError } from '../../lib/api-error';
import { displayDate } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { getClaims, useUploadClaims, type Claim } from './cs-stars-api';

interface LineError { line: number; reasons: string[] }
type Upload =
  | { state: 'idle' }
  | { state: 'sending'; fraction: number }
  | { state: 'loading' }
  | { state: 'done'; rows: number; inserted: number; updated: number; staleLetters: number }
  | { state: 'refused'; message: string; lines: LineError[] }
  | { state: 'failed' };

const COLUMNS: Column<Claim>[] = [
  { header: 'Export Date', cell: (c) => displayDate(c.exportDate), className: 'cell--nowrap' },
  { header: 'Last Name', cell: (c) => c.physicianLastName },
  { header: 'First Name', cell: (c) => c.physicianFirstName },
  { header: 'Middle', cell: (c) => c.physicianMiddleInitial },
  { header: 'Involvement', cell: (c) => c.involvement },
  { header: 'Claim Number', cell: (c) => c.claimNumber, className: 'cell--nowrap' },
  { header: 'Report Date', cell: (c) => displayDate(c.reportDate), className: 'cell--nowrap' },
  { header: 'Indemnity Paid', cell: (c) => formatUsd(c.indemnityPaid), className: 'cell--nowrap' },
];

const staleLettersNotice = (n: number) =>
  `${n.toLocaleString('en-US')} issued letter${n > 1 ? 's are' : ' is'} now marked "${STALE_LETTER_LABEL}" (listed on the dashboard).`;

/** `/manage/cs-stars` (spec 1 §5, spec 2 §7.11): upload the CS-STARS CSV export; the 10,000 latest claims by report date. */
export function CsStarsPage() {
  const uploading = useUploadClaims();
  const claims = useQuery({ queryKey: queryKeys.csStarsClaims, queryFn: ({ signal }) => getClaims(signal) });
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const [upload, setUpload] = useState<Upload>({ state: 'idle' });
  const input = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const isCsv = file && (/\.csv$/i.test(file.name) || file.type === 'text/csv');
    setMissing(!isCsv);
    if (!file || !isCsv) return;
    setUpload({ state: 'sending', fraction: 0 });
    try {
      const result = await uploading.mutateAsync({
        file, onProgress: (fraction) => setUpload(fraction < 1 ? { state: 'sending', fraction } : { state: 'loading' }),
      });
      setUpload({ state: 'done', rows: result.rows, inserted: result.inserted, updated: result.updated, staleLetters: result.staleLetters ?? 0 });
      setFile(null);
      if (input.current) input.current.value = '';
    } catch (error) {
      const data = error instanceof ApiError ? (error.data as { lines?: LineError[] } | undefined) : undefined;
      if (error instanceof ApiError && error.code === 400 && data?.lines) setUpload({ state: 'refused', message: error.message, lines: data.lines });
      else if (error instanceof ApiError && error.code === 400) { setMissing(true); setUpload({ state: 'idle' }); }
      else setUpload({ state: 'failed' });
    }
  }

  const busy = upload.state === 'sending' || upload.state === 'loading';
  return (
    <section className="page">
      <h1>Manage CS-STARS Data</h1>
      <form className="card" onSubmit={submit} noValidate aria-labelledby="upload-heading">
        <h2 id="upload-heading">Upload CS-STARS Export</h2>
        <div className={`field${missing ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor="cs-stars-file">CSV file</label>
          <input ref={input} id="cs-stars-file" name="file" type="file" accept=".csv,text/csv" className="field__control"
            aria-invalid={missing || undefined} aria-describedby={missing ? 'cs-stars-file-error' : undefined}
            onChange={(e) => { setFile(e.target.files?.[0] ?? null); setMissing(false); }} />
          {missing && <p id="cs-stars-file-error" className="error-text">{DESK_MESSAGES.csvRequired}</p>}
        </div>
        <div className="button-row"><button type="submit" className="button" disabled={busy}>Upload</button></div>
        {upload.state === 'sending' && (
          <p role="status">
            <label htmlFor="upload-progress">Uploading… {Math.round(upload.fraction * 100)}%</label>{' '}
            <progress id="upload-progress" className="progress" max={1} value={upload.fraction} />
          </p>
        )}
        {upload.state === 'loading' && (
          <p role="status"><label htmlFor="load-progress">Checking and loading the claims…</label> <progress id="load-progress" className="progress" /></p>
        )}
        {upload.state === 'done' && (
          <Alert kind="success">Loaded {upload.rows.toLocaleString('en-US')} claims: {upload.inserted.toLocaleString('en-US')} new, {upload.updated.toLocaleString('en-US')} updated.
            {upload.staleLetters > 0 && ` ${staleLettersNotice(upload.staleLetters)}`}</Alert>
        )}
        {upload.state === 'refused' && (
          <Alert kind="error">
            {upload.message}
            <ul className="line-errors">
              {upload.lines.map((l) => <li key={l.line}>Line {l.line}: {l.reasons.join('; ')}</li>)}
            </ul>
          </Alert>
        )}
        {upload.state === 'failed' && <Alert kind="error">{DESK_MESSAGES.csvUploadFailed}</Alert>}
      </form>
      <section aria-labelledby="claims-heading">
        <h2 id="claims-heading">Claims{claims.data ? ` (${claims.data.total.toLocaleString('en-US')}${claims.data.total > claims.data.data.length ? `, the latest ${claims.data.data.length.toLocaleString('en-US')} shown` : ''})` : ''}</h2>
        {claims.status === 'pending' && <Loading />}
        {claims.status === 'error' && <Alert kind="error">{DESK_MESSAGES.csvUploadFailed}</Alert>}
        {claims.data && (claims.data.data.length
          ? <div className="table-scroll" tabIndex={0} aria-label="Claims table"><DataTable columns={COLUMNS} rows={claims.data.data} rowKey={(c) => c.id} labelledBy="claims-heading" /></div>
          : <p className="empty">No claims loaded.</p>)}
      </section>
    </section>
  );
}
