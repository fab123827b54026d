interface PagerProps {
  /** what is paged, for the navigation landmark's name ("Pages of In Progress") */
  label: string;
  total: number;
  /** index of the first row shown */
  skip: number;
  pageSize: number;
  onChange: (skip: number) => void;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * "Showing 1–15 of 1,234" with Previous and Next. The buttons stay focusable at either end (aria-disabled rather
 * than disabled), so a keyboard user who pages to the end keeps their place; the range is a polite live region,
 * so a screen reader hears the new rows' range after each press.
 */
export function Pager({ label, total, skip, pageSize, onChange }: PagerProps) {
  if (total <= pageSize && skip === 0) return null;
  const first = Math.min(skip + 1, total);
  const last = Math.min(skip + pageSize, total);
  const hasPrevious = skip > 0;
  const hasNext = skip + pageSize < total;
  return (
    <nav className="pager" aria-label={`Pages of ${label}`}>
      <p className="pager__range" aria-live="polite">Showing {count(first)}–{count(last)} of {count(total)}</p>
      <div className="button-row button-row--tight">
        <button type="button" className="button button--small button--secondary" aria-disabled={!hasPrevious}
          onClick={() => { if (hasPrevious) onChange(Math.max(0, skip - pageSize)); }}>
          Previous
        </button>
        <button type="button" className="button button--small button--secondary" aria-disabled={!hasNext}
          onClick={() => { if (hasNext) onChange(skip + pageSize); }}>
          Next
        </button>
      </div>
    </nav>
  );
}
