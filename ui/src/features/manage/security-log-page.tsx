import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  DESK_MESSAGES, MESSAGES, parseUsDate, SECURITY_EVENT_KINDS,
} from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { DataTable, type Column } from '../../components/ui/data-table';
import { FieldFrame, fieldId, TextField } from '../../components/ui/form-field';
import { Loading } from '../../components/ui/loading';
import { Pager } from '../../components/ui/pager';
import { api } from '../../lib/api-client';
import { displayDateTime } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import type { SecurityLogEntry as SecurityLogEntrySchema, SecurityLogPage as SecurityLogPageSchema } from '../../../../contract/security-log.schema';
import type { Wire } from '../../../../contract/wire';

type SecurityLogEntry = Wire<typeof SecurityLogEntrySchema>;
type SecurityLogPageData = Wire<typeof SecurityLogPageSchema>;

const PAGE_SIZE = 50;
// The office's zone, as the API bounds the From/To days by it (domain/request-clocks.ts).

/** The detail of a line in words: "GET /api/v1/admins, 403 (5 times)", "adminId 12", … */
function detailText(entry: SecurityLogEntry): string {
  const d = entry.detail;
  const repeats = Number(d.repeats ?? 1);
  const times = repeats > 1 ? ` (${repeats} times)` : '';
  if (entry.kind === 'accessRefused') return `${String(d.method)} ${String(d.route)}, ${String(d.status)}${times}`;
  if (entry.kind === 'singleSignOnRefused' && d.minute) return `${String(d.code)}: ${String(d.detail)}${times}`;
  return Object.entries(d).map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`).join('; ') || '—';
}

const columns: Column<SecurityLogEntry>[] = [
  { header: 'Date and time', cell: (e) => displayDateTime(e.at), className: 'cell--nowrap' },
  { header: 'Kind', cell: (e) => e.kindLabel },
  { header: 'User', cell: (e) => [e.userName, e.email].filter(Boolean).join(' · ') || '—' },
  { header: 'Address', cell: (e) => e.ip ?? '—' },
  { header: 'Details', cell: detailText },
];

/** `/manage/security-log`: the security log, newest first, filtered by user, kind and day. */
export function SecurityLogPage() {
  const [values, setValues] = useState({ email: '', kind: '', from: '', to: '' });
  const [applied, setApplied] = useState<Record<string, string>>({});
  const [skip, setSkip] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const query = new URLSearchParams({ ...applied, $limit: String(PAGE_SIZE), $skip: String(skip) }).toString();
  const log = useQuery({ queryKey: queryKeys.securityLog(query), queryFn: ({ signal }) => api.get<SecurityLogPageData>(`/security-log?${query}`, { signal }) });

  const set = (name: keyof typeof values) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    const next: Record<string, string> = {};
    for (const name of ['from', 'to'] as const) {
      if (!values[name].trim()) continue;
      const day = parseUsDate(values[name]);
      if (day) next[name] = day; else found[name] = MESSAGES.dateInputInvalid;
    }
    if (next.from && next.to && next.from > next.to) found.from = DESK_MESSAGES.fromAfterTo;
    setErrors(found);
    if (Object.keys(found).length) return;
    if (values.email.trim()) next.email = values.email.trim();
    if (values.kind) next.kind = values.kind;
    setApplied(next);
    setSkip(0);
  }

  return (
    <section className="page">
      <h1>Security Log</h1>
      <form className="card" onSubmit={submit} noValidate aria-label="Security log filters">
        <div className="filters">
          <TextField name="email" label="User Email" value={values.email} onChange={set('email')} />
          <FieldFrame name="kind" label="Kind">
            <select id={fieldId('kind')} name="kind" className="field__control" value={values.kind} onChange={set('kind')}>
              <option value="">All Kinds</option>
              {Object.entries(SECURITY_EVENT_KINDS).map(([kind, label]) => <option key={kind} value={kind}>{label}</option>)}
            </select>
          </FieldFrame>
          <TextField name="from" label="From" placeholder="mm/dd/yyyy" value={values.from} onChange={set('from')} error={errors.from} />
          <TextField name="to" label="To" placeholder="mm/dd/yyyy" value={values.to} onChange={set('to')} error={errors.to} />
        </div>
        <div className="button-row"><button type="submit" className="button">Search</button></div>
      </form>
      {log.status === 'error' && <Alert kind="error">{log.error.message}</Alert>}
      <section aria-labelledby="security-log-heading">
        <h2 id="security-log-heading">Entries</h2>
        {log.status === 'pending' && <Loading />}
        {log.data && (log.data.data.length
          ? <DataTable columns={columns} rows={log.data.data} rowKey={(e) => e.id} labelledBy="security-log-heading" />
          : <p className="empty">No entries.</p>)}
        {log.data && <Pager label="the security log" total={log.data.total} skip={skip} pageSize={PAGE_SIZE} onChange={setSkip} />}
      </section>
    </section>
  );
}
