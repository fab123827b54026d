import { Link } from 'react-router-dom';
import { displayDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { PreferenceSelect } from '../../components/renewal-mark-select';
import { VERDICT_LABELS } from './renewal-labels';
import type { RenewalCandidate } from './renewals-api';

// Subtype with its current code, and the verdict with its reason, share a cell: ten columns did not fit a laptop's width.
const COLUMNS = ['Renew', 'Request', 'Requester', 'Certificate', 'Coverage ends', 'New period', 'Verdict', 'Renewal mark'] as const;

interface CandidatesTableProps {
  rows: readonly RenewalCandidate[];
  /** renewable rows the administrator unticked: every other renewable row is in the run */
  unticked: ReadonlySet<number>;
  onTick: (requestId: number, ticked: boolean) => void;
}

/** The rows arrive sorted by holder, then requester: consecutive rows of one holder make its group. */
function byHolder(rows: readonly RenewalCandidate[]) {
  const groups: { holder: string; rows: RenewalCandidate[] }[] = [];
  for (const row of rows) {
    const last = groups[groups.length - 1];
    if (last?.holder === row.holder) last.rows.push(row);
    else groups.push({ holder: row.holder, rows: [row] });
  }
  return groups;
}

/**
 * The certificates of the selection, a header row per certificate holder. Each says what the rules decided and why,
 * so a "Does not fit" row tells the office what to fix (usually a policy year missing for its dates).
 */
export function CandidatesTable({ rows, unticked, onTick }: CandidatesTableProps) {
  return (
    <div className="table-wrap">
      <table className="data-table renewal-table" aria-labelledby="renewal-candidates-heading">
        <thead><tr>{COLUMNS.map((c) => <th key={c} scope="col">{c}</th>)}</tr></thead>
        {byHolder(rows).map((group) => (
          <tbody key={group.holder}>
            <tr className="renewal-table__group">
              <th scope="colgroup" colSpan={COLUMNS.length}>
                {group.holder} <span className="muted">· {group.rows.length === 1 ? '1 certificate' : `${group.rows.length} certificates`}</span>
              </th>
            </tr>
            {group.rows.map((row) => <CandidateRow key={row.requestId} row={row} ticked={!unticked.has(row.requestId)} onTick={onTick} />)}
          </tbody>
        ))}
      </table>
    </div>
  );
}

function CandidateRow({ row, ticked, onTick }: { row: RenewalCandidate; ticked: boolean; onTick: CandidatesTableProps['onTick'] }) {
  const cell = (label: (typeof COLUMNS)[number]) => ({ 'data-label': label });
  return (
    <tr className={`renewal-table__row--${row.verdict}`}>
      <td {...cell('Renew')} className="cell--action">
        {row.verdict === 'renew' && (
          <input type="checkbox" className="renewal-table__tick" checked={ticked} aria-label={`Renew request ${row.requestNumber}`}
            onChange={(e) => onTick(row.requestId, e.target.checked)} />
        )}
      </td>
      <td {...cell('Request')}><Link to={paths.certificate.view.getHref(row.requestId)}>{row.requestNumber}</Link></td>
      <td {...cell('Requester')}>{row.requester}<br /><span className="muted renewal-table__email">{row.requesterEmail}</span></td>
      <td {...cell('Certificate')}>
        {row.subtypeLabel}<br /><span className="muted">Code <span className="verify-code nowrap">{row.verificationCode}</span></span>
      </td>
      <td {...cell('Coverage ends')} className="cell--nowrap">{displayDate(row.coverageEndsOn)}</td>
      <td {...cell('New period')}>{displayDate(row.newPeriod.from)} – {displayDate(row.newPeriod.to)}</td>
      <td {...cell('Verdict')}><span className={`renewal-verdict renewal-verdict--${row.verdict}`}>{VERDICT_LABELS[row.verdict]}</span><br />{row.reason}</td>
      <td {...cell('Renewal mark')}><PreferenceSelect requestId={row.requestId} requestNumber={row.requestNumber} preference={row.preference} /></td>
    </tr>
  );
}
