import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { CERTIFICATE_TYPES } from '../../../../domain';
import { Loading } from '../../components/ui/loading';
import { displayDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import type { Simulation } from './instant-api';

// The chart library arrives with the first simulation, not with the page.
const SimulationChart = lazy(() => import('./simulation-chart').then((m) => ({ default: m.SimulationChart })));

/** Okabe–Ito colours, told apart with every common colour-vision deficiency (the Reports page's series colours). */
const COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00'];
const DIFFERED = { denied: 'Denied', pended: 'Pended for more information', changed: 'Holder or dates changed' } as const;
const count = (n: number) => n.toLocaleString('en-US');
/** `yyyy-mm` (already the office's month) as "Mar 2026". */
const monthLabel = (month: string) => new Date(`${month}-15T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

function pivot(result: Simulation) {
  const kinds = CERTIFICATE_TYPES.filter((k) => result.byKindMonth.some((c) => c.kind === k));
  const months = [...new Set(result.byKindMonth.map((c) => c.month))].sort();
  const rows = months.map((month) => {
    const row: Record<string, string | number> = { month: monthLabel(month) };
    for (const kind of kinds) row[kind] = result.byKindMonth.find((c) => c.month === month && c.kind === kind)?.count ?? 0;
    return row;
  });
  return { kinds, rows };
}

export function SimulationResultView({ result }: { result: Simulation }) {
  const { kinds, rows } = pivot(result);
  const share = result.considered ? ` (${Math.round((result.wouldIssue / result.considered) * 100)}%)` : '';
  const saved = result.medianSavedHours === null ? 'no time saved to measure' : `a median of ${Math.round(result.medianSavedHours * 10) / 10} hours saved on each`;
  return (
    <div className="report instant-simulation__result">
      <p id="simulation-reading" className="report__reading">
        <strong>Would have issued {count(result.wouldIssue)} of {count(result.considered)} requests{share}</strong> submitted from {displayDate(result.from)} to{' '}
        {displayDate(result.to)}, with {saved}. Computed in {count(result.tookMs)} ms.
      </p>
      {rows.length > 0 && (
        <figure className="report__figure">
          <Suspense fallback={<Loading />}>
            <SimulationChart label='Would issue by month and certificate type: chart (numbers in the table "Would issue by month")'
              describedBy="simulation-reading" rows={rows} kinds={kinds} colors={COLORS} />
          </Suspense>
          <ul className="report__legend" aria-label="Chart legend">
            {kinds.map((kind, i) => <li key={kind}><span className="report__swatch" style={{ background: COLORS[i] }} aria-hidden="true" />{kind}</li>)}
          </ul>
        </figure>
      )}
      {rows.length > 0 && (
        <div className="table-wrap" role="region" aria-label="Would issue by month: table" tabIndex={0}>
          <table className="data-table">
            <caption>Would issue by month</caption>
            <thead><tr><th scope="col">Month</th>{kinds.map((k) => <th key={k} scope="col" className="cell--number">{k}</th>)}<th scope="col" className="cell--number">Total</th></tr></thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.month}>
                  <th scope="row" data-label="Month">{row.month}</th>
                  {kinds.map((k) => <td key={k} data-label={k} className="cell--number">{count(Number(row[k]))}</td>)}
                  <td data-label="Total" className="cell--number">{count(kinds.reduce((sum, k) => sum + Number(row[k]), 0))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h4>Where the office decided otherwise ({count(result.differedTotal)})</h4>
      {result.differed.length === 0 ? <p className="empty">None: the office approved every request this rule would have issued, as asked.</p> : (
        <ul className="instant-differed">
          {result.differed.map((d) => (
            <li key={d.requestId}>
              <Link to={paths.certificate.view.getHref(d.requestId)}>Request {d.requestNumber ?? `#${d.requestId}`}</Link>
              {` (${d.certificateType ?? 'certificate'}, now ${d.status}): ${DIFFERED[d.differedBy]}${d.detail ? `: ${d.detail}` : ''}`}
            </li>
          ))}
        </ul>
      )}
      {result.differedTotal > result.differed.length && <p className="muted">The newest {result.differed.length} are listed.</p>}
    </div>
  );
}
