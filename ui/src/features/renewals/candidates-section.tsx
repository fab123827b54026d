import { CandidatesTable } from './candidates-table';
import { VERDICT_LABELS } from './renewal-labels';
import type { Candidates } from './renewals-api';

interface CandidatesSectionProps {
  candidates: Candidates;
  unticked: ReadonlySet<number>;
  onTick: (requestId: number, ticked: boolean) => void;
  onTickAll: (ticked: boolean) => void;
}

const SUMMARY = ['renew', 'notRenewing', 'doesNotFit', 'renewed'] as const;

/** The selection's counts by verdict, then its certificates by holder. */
export function CandidatesSection({ candidates, unticked, onTick, onTickAll }: CandidatesSectionProps) {
  const { summary, data, truncated, policyYear } = candidates;
  const renewable = data.some((c) => c.verdict === 'renew');
  return (
    <section aria-labelledby="renewal-candidates-heading" className="renewal-candidates">
      <h2 id="renewal-candidates-heading">{policyYear ? `Certificates to renew for ${policyYear.label}` : 'Certificates to renew'}</h2>
      <dl className="stat-row renewal-summary" aria-label="Certificates by verdict">
        {SUMMARY.map((key) => (
          <div key={key} className="stat">
            <dt className="stat__label">{VERDICT_LABELS[key]}</dt>
            <dd className="stat__value">{summary[key].toLocaleString('en-US')}</dd>
          </div>
        ))}
      </dl>
      {truncated && (
        <p className="muted" role="status">
          Only the first {data.length.toLocaleString('en-US')} certificates are listed. Narrow the search to see the others; a run started without
          narrowing or unticking renews all {summary.renew.toLocaleString('en-US')}.
        </p>
      )}
      {data.length === 0 ? <p className="empty">No certificate matches this choice.</p> : (
        <>
          {renewable && (
            <div className="button-row">
              <button type="button" className="button button--small button--secondary" onClick={() => onTickAll(true)}>Tick all that will renew</button>
              <button type="button" className="button button--small button--secondary" onClick={() => onTickAll(false)}>Untick all</button>
            </div>
          )}
          <CandidatesTable rows={data} unticked={unticked} onTick={onTick} />
        </>
      )}
    </section>
  );
}
