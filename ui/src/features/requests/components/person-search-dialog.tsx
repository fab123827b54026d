import { useState, type FormEvent } from 'react';
import { useModalDialog } from '../../../components/ui/use-modal-dialog';
import { PERSON_MESSAGES, replacedPersonValues, type RequestKindDefinition } from '../../../../../domain';
import { api, ApiError } from '../../../lib/api-client';
import type { PeopleList, PersonRecord } from '../../../../../contract/person.schema';
import type { Wire } from '../../../../../contract/wire';

export type DirectoryPerson = Wire<typeof PersonRecord>;

/**
 * The form values of a picked person: what the directory tells the requester, and every other detail of the kind's
 * person section emptied (a new pick replaces the previous person whole: birth date and alternate name included).
 */
export const pickedPersonValues = (kind: RequestKindDefinition, person: DirectoryPerson): Record<string, string> =>
  replacedPersonValues(kind, {
    employeeId: person.employeeId, lastName: person.lastName, firstName: person.firstName, middleInitial: person.middleInitial ?? '',
    title: person.title ?? '', email: person.email ?? '', workPhone: person.workPhone ?? '',
  });

interface PersonSearchDialogProps {
  open: boolean;
  role: string;
  onApply: (person: DirectoryPerson) => void;
  /** Add New: close the search and type the person on the form */
  onAddNew: () => void;
  onClose: () => void;
}

/**
 * The person modal (spec 1 §2, §5 "Person search"): search the directory by employee id, email, or last and first
 * name together (contains), pick one and Apply; no match offers Add New. Escape closes it.
 */
export function PersonSearchDialog({ open, role, onApply, onAddNew, onClose }: PersonSearchDialogProps) {
  const ref = useModalDialog(open);
  const [criteria, setCriteria] = useState({ employeeId: '', email: '', lastName: '', firstName: '' });
  const [results, setResults] = useState<DirectoryPerson[] | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function search(event: FormEvent) {
    event.preventDefault();
    const query = Object.fromEntries(Object.entries(criteria).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v));
    setResults(null);
    setSelected(null);
    if (Object.keys(query).length === 0) { setMessage(PERSON_MESSAGES.criteriaRequired); return; }
    if (!query.employeeId && !query.email && (!query.lastName || !query.firstName)) { setMessage(PERSON_MESSAGES.nameTogether); return; }
    setMessage(null);
    setBusy(true);
    try {
      const found = await api.get<Wire<typeof PeopleList>>(`/people?${new URLSearchParams(query as Record<string, string>)}`);
      setResults(found.data);
      if (found.data.length === 0) setMessage(PERSON_MESSAGES.noMatch);
    } catch (error) {
      // A refusal the server explains is shown as it is; anything else gets the spec's failure text and advice.
      setMessage(error instanceof ApiError && error.code < 500 ? error.message : `${PERSON_MESSAGES.failed} ${PERSON_MESSAGES.failedAdvice}`);
    } finally {
      setBusy(false);
    }
  }

  const input = (name: keyof typeof criteria, label: string) => (
    <div className="field">
      <label className="field__label" htmlFor={`person-search-${name}`}>{label}</label>
      <input id={`person-search-${name}`} className="field__control" value={criteria[name]} maxLength={200}
        onChange={(e) => setCriteria((c) => ({ ...c, [name]: e.target.value }))} />
    </div>
  );
  const chosen = results?.find((p) => p.id === selected);
  // Employee or Student: administrators only (spec 1 §6 "person type column"); the API sends it to them alone.
  const showType = !!results?.some((p) => p.personType !== undefined);

  return (
    <dialog ref={ref} className="dialog dialog--wide" aria-labelledby="person-search-title"
      onCancel={(event) => { event.preventDefault(); onClose(); }}>
      <h2 id="person-search-title">Find {role}</h2>
      <p>Search by employee id, email, or last and first name together.</p>
      <form onSubmit={search} className="person-search" noValidate>
        <div className="form-grid">
          {input('employeeId', 'Employee ID')}
          {input('email', 'Email Address')}
          {input('lastName', 'Last Name')}
          {input('firstName', 'First Name')}
        </div>
        <div className="button-row">
          <button type="submit" className="button" disabled={busy}>{busy ? 'Searching…' : 'Search'}</button>
        </div>
      </form>
      {message && <p role="alert" className="error-text">{message}</p>}
      {results && results.length > 0 && (
        <table className="data-table person-results">
          <caption className="sr-only">People matching the search</caption>
          <thead>
            <tr>
              <th scope="col">Select</th><th scope="col">Name</th><th scope="col">Employee ID</th><th scope="col">Email</th><th scope="col">Title</th>
              {showType && <th scope="col">Type</th>}
            </tr>
          </thead>
          <tbody>
            {results.map((p) => (
              <tr key={p.id}>
                <td><input type="radio" name="person-result" aria-label={`${p.firstName} ${p.lastName}`} checked={selected === p.id}
                  onChange={() => setSelected(p.id)} /></td>
                <td>{p.lastName}, {p.firstName}{p.middleInitial ? ` ${p.middleInitial}` : ''}</td>
                <td>{p.employeeId}</td>
                <td>{p.email}</td>
                <td>{p.title}{p.employmentStatus === 'T' ? ' (terminated)' : ''}</td>
                {showType && <td>{p.personType ?? '—'}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="button-row">
        <button type="button" className="button" disabled={!chosen} onClick={() => chosen && onApply(chosen)}>Apply</button>
        {results && results.length === 0 && <button type="button" className="button button--secondary" onClick={onAddNew}>Add New</button>}
        <button type="button" className="button button--secondary" onClick={onClose}>Cancel</button>
      </div>
    </dialog>
  );
}
