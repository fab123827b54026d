import { useState, type FormEvent } from 'react';
import { DESK_MESSAGES, formatUsd, isFinished, type RequestStatus } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { DataTable, type Column } from '../../components/ui/data-table';
import { TextField } from '../../components/ui/form-field';
import { Modal } from '../../components/ui/modal';
import { displayDate } from '../../lib/format';
import { searchClaims, useLinkClaims, type Claim, type ClaimLink } from './claims-api';

interface ClaimHistorySectionProps {
  request: { id: number; status: string; lastName?: string | null; firstName?: string | null; dateFrom?: string | null; dateTo?: string | null };
  links: ClaimLink[];
}

const LINK_COLUMNS: Column<ClaimLink>[] = [
  { header: 'Claim Number', cell: (c) => c.claimNumber },
  { header: 'Physician', cell: (c) => c.physician },
  { header: 'Report Date', cell: (c) => displayDate(c.reportDate), className: 'cell--nowrap' },
  { header: 'Involvement', cell: (c) => c.involvement },
  { header: 'Indemnity Paid', cell: (c) => formatUsd(c.indemnityPaid ?? '0'), className: 'cell--nowrap' },
];

/**
 * Admin, credentialing request: the claims linked to the letter, and the claim search modal (spec 2 §7.6): last and
 * first name with or/and, report dates within the request's dates; the chosen claims replace the earlier links.
 */
export function ClaimHistorySection({ request, links }: ClaimHistorySectionProps) {
  const [open, setOpen] = useState(false);
  const [names, setNames] = useState({ lastName: request.lastName ?? '', firstName: request.firstName ?? '', combination: 'or' });
  const [found, setFound] = useState<Claim[] | null>(null);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const linking = useLinkClaims(request.id);
  const busy = searching || linking.isPending;
  const claims = links.filter((l) => l.claimNumber);
  const placeholderOnly = links.length > 0 && claims.length === 0;
  const editable = !isFinished(request.status as RequestStatus);

  async function search(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!names.lastName.trim() && !names.firstName.trim()) { setError('Enter a last name or a first name.'); return; }
    setSearching(true);
    try {
      const query: Record<string, string | number> = { requestId: request.id, combination: names.combination };
      if (names.lastName.trim()) query.lastName = names.lastName.trim();
      if (names.firstName.trim()) query.firstName = names.firstName.trim();
      const result = await searchClaims(query);
      setFound(result.data);
      setChosen(new Set(result.data.filter((c) => links.some((l) => l.claimId === c.id)).map((c) => c.id)));
    } catch {
      setError(DESK_MESSAGES.claimsFailed);
    } finally {
      setSearching(false);
    }
  }

  function link() {
    setError(null);
    linking.mutate([...chosen], { onSuccess: () => setOpen(false), onError: () => setError(DESK_MESSAGES.claimsFailed) });
  }

  const toggle = (id: number) => setChosen((set) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id); else next.add(id);
    return next;
  });

  const resultColumns: Column<Claim>[] = [
    { header: 'Select', cell: (c) => <input type="checkbox" checked={chosen.has(c.id)} onChange={() => toggle(c.id)} aria-label={`Select claim ${c.claimNumber}`} /> },
    { header: 'Last Name', cell: (c) => c.physicianLastName },
    { header: 'First Name', cell: (c) => `${c.physicianFirstName}${c.physicianMiddleInitial ? ` ${c.physicianMiddleInitial}.` : ''}` },
    { header: 'Claim Number', cell: (c) => c.claimNumber },
    { header: 'Report Date', cell: (c) => displayDate(c.reportDate), className: 'cell--nowrap' },
    { header: 'Involvement', cell: (c) => c.involvement },
    { header: 'Status', cell: (c) => `${c.status}${c.outcome ? ` – ${c.outcome}` : ''}` },
    { header: 'Indemnity Paid', cell: (c) => formatUsd(c.indemnityPaid), className: 'cell--nowrap' },
  ];

  return (
    <section className="details-section" aria-labelledby="claim-history-heading">
      <h3 id="claim-history-heading" className="details-section__title">Claim History</h3>
      {claims.length ? <DataTable columns={LINK_COLUMNS} rows={claims} rowKey={(c) => c.id} labelledBy="claim-history-heading" />
        : <p className="empty">{placeholderOnly ? `No claims found for ${displayDate(request.dateFrom)} – ${displayDate(request.dateTo)}; the letter says so.` : 'No claims linked yet.'}</p>}
      {editable && (
        <div className="button-row">
          <button type="button" className="button button--secondary" onClick={() => { setFound(null); setError(null); setOpen(true); }}>Search Claims</button>
        </div>
      )}
      <Modal open={open} title="Claim History Search" onClose={() => setOpen(false)} wide>
        <p className="muted">Report dates {displayDate(request.dateFrom)} – {displayDate(request.dateTo)}</p>
        <form onSubmit={search} noValidate>
          <div className="filters">
            <TextField name="claimLastName" label="Last Name" value={names.lastName} onChange={(e) => setNames((n) => ({ ...n, lastName: e.target.value }))} />
            <TextField name="claimFirstName" label="First Name" value={names.firstName} onChange={(e) => setNames((n) => ({ ...n, firstName: e.target.value }))} />
            <fieldset className="field">
              <legend className="field__label">Match</legend>
              {(['or', 'and'] as const).map((c) => (
                <label key={c} className="field--inline">
                  <input type="radio" name="combination" value={c} checked={names.combination === c} onChange={() => setNames((n) => ({ ...n, combination: c }))} />
                  {' '}{c === 'or' ? 'Last or first name' : 'Last and first name'}
                </label>
              ))}
            </fieldset>
          </div>
          <div className="button-row"><button type="submit" className="button" disabled={busy}>Search</button></div>
        </form>
        {error && <Alert kind="error">{error}</Alert>}
        {found && (found.length
          ? <div className="table-scroll"><DataTable columns={resultColumns} rows={found} rowKey={(c) => c.id} label="Claims found" /></div>
          : <p className="empty">{DESK_MESSAGES.claimsNone}</p>)}
        {found && (
          <div className="button-row">
            <button type="button" className="button" onClick={link} disabled={busy}>
              {chosen.size ? `Link ${chosen.size} Selected Claim${chosen.size > 1 ? 's' : ''}` : 'Record No Claims Found'}
            </button>
            <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>Cancel</button>
          </div>
        )}
      </Modal>
    </section>
  );
}
