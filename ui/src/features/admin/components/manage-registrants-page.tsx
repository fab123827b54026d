import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { cleanText, MESSAGES } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { TextField } from '../../../components/ui/form-field';
import { paths } from '../../../lib/paths';
import { searchRegistrants, useSetUserActive, type ExternalUser, type RegistrantSearch } from '../api/manage-users';

const EMPTY: RegistrantSearch = { lastName: '', firstName: '', company: '', email: '' };

/**
 * /manage/registrants: Manage External Users (spec 1 §5 External user search, spec 2 §8.3). Searching needs one
 * non-empty parameter; each result can be deactivated or reactivated.
 */
export function ManageRegistrantsPage() {
  const [search, setSearch] = useState<RegistrantSearch>(EMPTY);
  const [results, setResults] = useState<ExternalUser[] | null>(null);
  const [message, setMessage] = useState<{ kind: 'error' | 'success' | 'info'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const activation = useSetUserActive();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const query = Object.fromEntries(Object.entries(search).map(([k, v]) => [k, cleanText(v) ?? ''])) as unknown as RegistrantSearch;
    if (!Object.values(query).some(Boolean)) {
      setMessage({ kind: 'error', text: MESSAGES.searchParametersRequired });
      setResults(null);
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      setResults(await searchRegistrants(query));
    } catch {
      setMessage({ kind: 'error', text: MESSAGES.searchFailed });
      setResults(null);
    } finally {
      setBusy(false);
    }
  }

  // One row after another may be pressed before the first answer: each answer updates its own row.
  async function toggle(user: ExternalUser) {
    try {
      const updated = await activation.mutateAsync({ id: user.id, active: !user.active });
      setResults((rows) => rows?.map((r) => (r.id === updated.id ? updated : r)) ?? null);
      setMessage({ kind: 'success', text: `${updated.firstName} ${updated.lastName} has been ${updated.active ? 'reactivated' : 'deactivated'}.` });
    } catch {
      setMessage({ kind: 'error', text: MESSAGES.genericPageError });
    }
  }

  const field = (name: keyof RegistrantSearch, label: string) => (
    <TextField name={name} label={label} maxLength={200} value={search[name]}
      onChange={(e) => setSearch((s) => ({ ...s, [name]: e.target.value }))} />
  );

  const columns: Column<ExternalUser>[] = [
    { header: 'Last Name', cell: (u) => u.lastName },
    { header: 'First Name', cell: (u) => u.firstName },
    { header: 'Middle', cell: (u) => u.middleInitial ?? '' },
    { header: 'Company', cell: (u) => u.company ?? '' },
    { header: 'Email', cell: (u) => u.email },
    { header: 'Status', cell: (u) => (u.active ? 'Active' : 'Deactivated') },
    {
      header: 'Actions',
      cell: (u) => (
        <div className="button-row button-row--tight">
          <Link className="button button--secondary" to={paths.manage.registrantEdit.getHref(u.id)} aria-label={`Edit ${u.firstName} ${u.lastName}`}>Edit</Link>
          <button type="button" className={u.active ? 'button button--danger-outline' : 'button button--secondary'}
            onClick={() => void toggle(u)} aria-label={`${u.active ? 'Deactivate' : 'Reactivate'} ${u.firstName} ${u.lastName}`}>
            {u.active ? 'Deactivate' : 'Reactivate'}
          </button>
        </div>
      ),
    },
  ];

  return (
    <section className="page">
      <h1>Manage External Users</h1>
      <form onSubmit={submit} noValidate className="card" aria-label="Search external users">
        <div className="form-grid">
          {field('lastName', 'Last Name')}
          {field('firstName', 'First Name')}
          {field('company', 'Company')}
          {field('email', 'Email')}
        </div>
        <div className="button-row">
          <button type="submit" className="button" disabled={busy}>Search</button>
          <button type="button" className="button button--secondary" onClick={() => { setSearch(EMPTY); setResults(null); setMessage(null); }}>Clear</button>
        </div>
      </form>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      {results && results.length === 0 && <p>{MESSAGES.noExternalUsers}</p>}
      {results && results.length > 0 && (
        <>
          <h2 id="registrants-heading">External Users</h2>
          <DataTable columns={columns} rows={results} rowKey={(u) => u.id} labelledBy="registrants-heading" />
        </>
      )}
    </section>
  );
}
