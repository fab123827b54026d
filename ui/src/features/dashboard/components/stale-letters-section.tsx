import { Link } from 'react-router-dom';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { displayDate, personName } from '../../../lib/format';
import { requestNumberLabel, requestViewHref } from '../../../lib/request-labels';
import type { RequestRecord } from '../../../types/api';
import { StaleLetterBadge } from '../../../components/stale-letter-badge';

const COLUMNS: Column<RequestRecord>[] = [
  { header: 'Request Number', cell: requestNumberLabel },
  { header: 'Clinician', cell: (r) => personName(r) },
  { header: 'Period', cell: (r) => `${displayDate(r.dateFrom)} – ${displayDate(r.dateTo)}`, className: 'cell--nowrap' },
  { header: 'Status', cell: (r) => r.status },
  { header: 'Letter', cell: (r) => <StaleLetterBadge since={r.letterStaleSince!} /> },
  { header: 'Flagged', cell: (r) => displayDate(r.letterStaleSince), className: 'cell--nowrap' },
  {
    header: 'Action', className: 'cell--action',
    cell: (r) => <Link className="button button--small" to={requestViewHref(r)} state={{ fromDashboard: true }}>View</Link>,
  },
];

/**
 * The admin dashboard's list of issued letters a CS-STARS upload may have made out of date. Approved requests leave
 * the work queue (spec 2 §7.4), so they are listed here until a new letter is generated. The dashboard call sends
 * the first page (oldest flag first) and the total.
 */
export function StaleLettersSection({ requests, total }: { requests: RequestRecord[]; total: number }) {
  if (!requests.length) return null;
  return (
    <section className="stale-letters" aria-labelledby="stale-letters-heading">
      <h2 id="stale-letters-heading">Letters that may be out of date ({total.toLocaleString('en-US')})</h2>
      <DataTable columns={COLUMNS} rows={requests} rowKey={(r) => r.id} labelledBy="stale-letters-heading" />
      {total > requests.length && (
        <p className="pager__range">Showing the {requests.length} flagged first of {total.toLocaleString('en-US')}.</p>
      )}
    </section>
  );
}
