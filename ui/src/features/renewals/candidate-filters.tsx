import { CERTIFICATE_TYPES } from '../../../../domain';
import type { Candidates } from './renewals-api';

/** What the administrator picked; what is left out the server decides (the next policy year and its window). */
export interface FilterState {
  policyYearId?: number;
  from?: string;
  to?: string;
  q: string;
  certificateType: string;
}

interface CandidateFiltersProps {
  filter: FilterState;
  onChange: (filter: FilterState) => void;
  /** the last answer: the years to choose from and the defaults the server chose */
  candidates: Candidates | undefined;
}

/** Which certificates the page lists: the target policy year, the coverage-end window, a search and a subtype. */
export function CandidateFilters({ filter, onChange, candidates }: CandidateFiltersProps) {
  const yearId = filter.policyYearId ?? candidates?.policyYear?.id;
  const from = filter.from ?? candidates?.window?.from ?? '';
  const to = filter.to ?? candidates?.window?.to ?? '';
  // A date edited keeps the other end as shown; an emptied one goes back to the server's default.
  const setDates = (next: { from?: string; to?: string }) => onChange({ ...filter, from: from || undefined, to: to || undefined, ...next });

  return (
    <form className="card renewal-filters" aria-label="Which certificates" onSubmit={(e) => e.preventDefault()}>
      <div className="filters">
        <div className="field">
          <label htmlFor="renewal-year" className="field__label">Renew for policy year</label>
          <select id="renewal-year" className="field__control" value={yearId ?? ''} disabled={!candidates?.years.length}
            // A new year brings its own default window: the dates picked for the previous year no longer apply.
            onChange={(e) => onChange({ ...filter, policyYearId: Number(e.target.value), from: undefined, to: undefined })}>
            {yearId === undefined && <option value="">No policy year on record</option>}
            {candidates?.years.map((y) => <option key={y.id} value={y.id}>{y.label}</option>)}
          </select>
        </div>
        <fieldset className="renewal-window">
          <legend className="field__label">Coverage ends between</legend>
          <div className="renewal-window__dates">
            <div className="field">
              <label htmlFor="renewal-from" className="field__label">From</label>
              <input id="renewal-from" type="date" className="field__control" value={from} onChange={(e) => setDates({ from: e.target.value || undefined })} />
            </div>
            <div className="field">
              <label htmlFor="renewal-to" className="field__label">To</label>
              <input id="renewal-to" type="date" className="field__control" value={to} onChange={(e) => setDates({ to: e.target.value || undefined })} />
            </div>
          </div>
        </fieldset>
        <div className="field">
          <label htmlFor="renewal-search" className="field__label">Search</label>
          <input id="renewal-search" type="search" className="field__control" value={filter.q} maxLength={200} aria-describedby="renewal-search-hint"
            onChange={(e) => onChange({ ...filter, q: e.target.value })} />
          <p id="renewal-search-hint" className="field__hint">Holder, requester, company or request number</p>
        </div>
        <div className="field">
          <label htmlFor="renewal-subtype" className="field__label">Subtype</label>
          <select id="renewal-subtype" className="field__control" value={filter.certificateType}
            onChange={(e) => onChange({ ...filter, certificateType: e.target.value })}>
            <option value="">All subtypes</option>
            {CERTIFICATE_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </div>
      </div>
    </form>
  );
}
