import type { RequestCounts as Counts } from '../../../types/api';

/** Submission counts: Today, MTD, YTD. */
export function RequestCounts({ counts }: { counts: Counts }) {
  const items = [['Today', counts.today], ['MTD', counts.monthToDate], ['YTD', counts.yearToDate]] as const;
  return (
    <dl className="stat-row" aria-label="Submission counts">
      {items.map(([label, value]) => (
        <div key={label} className="stat">
          <dt className="stat__label">{label}</dt>
          <dd className="stat__value">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
