/** Column sets of the dashboard tables (spec 1 §2 Dashboard). */
import { Link } from 'react-router-dom';
import { approvalDateLabel, COMPLETED_STATUSES, REQUEST_TYPE_FILTERS } from '../../../../../domain';
import { DeleteRequestButton } from '../../../components/delete-request-button';
import { displayDate, officeDate, personName } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import {
  isDeletable, isEditable, isOwnRequest, requestEditHref, requestNumberLabel, requestTypeLabel, requestViewHref,
} from '../../../lib/request-labels';
import type { RequestRecord } from '../../../types/api';
import type { Column } from '../../../components/ui/data-table';
import { StaleLetterBadge } from '../../../components/stale-letter-badge';

const fromDashboard = { fromDashboard: true };

const rowLink = (label: 'Edit' | 'View', request: RequestRecord) => (
  <Link className="button button--small" to={label === 'Edit' ? requestEditHref(request) : requestViewHref(request)}
    state={fromDashboard}>
    {label}
  </Link>
);

const requestNumber: Column<RequestRecord> = { header: 'Request Number', cell: requestNumberLabel };
const requestType: Column<RequestRecord> = { header: 'Request Type', cell: requestTypeLabel };
/** The role the filtered type names its person by (Clinician for claim history; otherwise the person's role). */
const ROLE_BY_FILTER: Record<string, string> = {
  [REQUEST_TYPE_FILTERS[0]]: 'Clinician', 'COI Request: Clinician': 'Clinician', 'COI Request: Provider': 'Provider',
  'COI Request: Event': 'Event Organizer', 'COI Request: Auto Liability': 'Employee', 'COI Request: Rental': 'Employee',
};
const person = (filter: string): Column<RequestRecord> => ({
  header: ROLE_BY_FILTER[filter] ?? 'Person (Role)',
  cell: (r) => {
    const name = personName(r);
    if (!name || name === '—') return '—';
    const role = r.personRole ?? (r.requestType === 'credentialing' ? 'Clinician' : null);
    return ROLE_BY_FILTER[filter] || !role ? name : `${name} (${role})`;
  },
});
const cloneLink = (r: RequestRecord) => COMPLETED_STATUSES.includes(r.status) && (
  <Link className="button button--small button--secondary" state={{ cloneId: r.id }}
    to={r.requestType === 'certificate' ? paths.certificate.new.getHref() : paths.credentialing.new.getHref()}
    aria-label={`Clone request ${r.requestNumber ?? ''}`}>
    Clone
  </Link>
);
const vin: Column<RequestRecord> = { header: 'VIN', cell: (r) => r.vehicleIdNumber ?? '—' };
const submissionDate: Column<RequestRecord> = { header: 'Submission Date', cell: (r) => displayDate(r.submitDate) };
const status: Column<RequestRecord> = { header: 'Status', cell: (r) => r.status };

export function submittedColumns(showVin: boolean, filter = ''): Column<RequestRecord>[] {
  return [
    requestNumber, requestType, person(filter), ...(showVin ? [vin] : []), submissionDate,
    { header: 'Approval Date', cell: (r) => approvalDateLabel(r.status, r.completedDate, officeDate) },
    status,
    {
      header: 'Action', className: 'cell--action',
      cell: (r) => <div className="button-row button-row--tight">{rowLink(isEditable(r) ? 'Edit' : 'View', r)}{cloneLink(r)}</div>,
    },
  ];
}

/** Spec 1 §2 "Draft columns": VIN always (unlike the submitted tables, where it shows only for the rental filter). */
export function draftColumns(filter = ''): Column<RequestRecord>[] {
  return [
    requestNumber, requestType, person(filter), vin,
    { header: 'Creation Date', cell: (r) => displayDate(r.createdAt) },
    { header: 'Modified Date', cell: (r) => displayDate(r.updatedAt) },
    {
      header: 'Action',
      className: 'cell--action',
      cell: (r) => (
        <div className="button-row button-row--tight">
          {rowLink('Edit', r)}
          {isDeletable(r) && (
            <DeleteRequestButton requestId={r.id} className="button button--small button--danger-outline" />
          )}
        </div>
      ),
    },
  ];
}

/**
 * The administrators' row action: View, except on an administrator's own request while its requester may edit it (a
 * draft, or sent back for more information), which is theirs to Edit (and, a never-submitted draft, Delete) as a
 * requester's is (spec 1 §2 Row actions; the server lets only the requester delete a draft).
 */
function adminAction(r: RequestRecord, userId: number) {
  if (!isEditable(r) || !isOwnRequest(r, { id: userId })) return rowLink('View', r);
  return (
    <div className="button-row button-row--tight">
      {rowLink('Edit', r)}
      {isDeletable(r) && <DeleteRequestButton requestId={r.id} className="button button--small button--danger-outline" />}
    </div>
  );
}

export function adminColumns(filter: string, userId: number): Column<RequestRecord>[] {
  return [
    requestNumber,
    { header: 'Requester', cell: (r) => r.requesterName ?? r.requesterEmail ?? '—' },
    requestType,
    person(filter),
    ...(filter === 'COI Request: Rental' ? [vin] : []),
    submissionDate,
    // A request reopened after its letter was flagged stays marked in the queue too.
    { header: 'Status', cell: (r) => <>{r.status}{r.letterStaleSince && <> <StaleLetterBadge since={r.letterStaleSince} /></>}</> },
    { header: 'Action', className: 'cell--action', cell: (r) => adminAction(r, userId) },
  ];
}
