/** Column sets of the dashboard tables (spec 1 §2 Dashboard). */
import { Link } from 'react-router-dom';
import { approvalDateLabel, formatUsDate } from '../../../../../domain';
import { DeleteRequestButton } from '../../../components/delete-request-button';
import { displayDate, personName } from '../../../lib/format';
import {
  isDeletable, isEditable, requestEditHref, requestNumberLabel, requestTypeLabel, requestViewHref,
} from '../../../lib/request-labels';
import type { RequestRecord } from '../../../types/api';
import type { Column } from '../../../components/ui/data-table';

const fromDashboard = { fromDashboard: true };

const rowLink = (label: 'Edit' | 'View', request: RequestRecord) => (
  <Link className="button button--small" to={label === 'Edit' ? requestEditHref(request) : requestViewHref(request)}
    state={fromDashboard}>
    {label}
  </Link>
);

const requestNumber: Column<RequestRecord> = { header: 'Request Number', cell: requestNumberLabel };
const requestType: Column<RequestRecord> = { header: 'Request Type', cell: requestTypeLabel };
const clinician: Column<RequestRecord> = { header: 'Clinician', cell: personName };
const vin: Column<RequestRecord> = { header: 'VIN', cell: (r) => r.vehicleIdNumber ?? '—' };
const submissionDate: Column<RequestRecord> = { header: 'Submission Date', cell: (r) => displayDate(r.submitDate) };
const status: Column<RequestRecord> = { header: 'Status', cell: (r) => r.status };

export function submittedColumns(showVin: boolean): Column<RequestRecord>[] {
  return [
    requestNumber, requestType, clinician, ...(showVin ? [vin] : []), submissionDate,
    { header: 'Approval Date', cell: (r) => approvalDateLabel(r.status, r.completedDate, formatUsDate) },
    status,
    { header: 'Action', className: 'cell--action', cell: (r) => rowLink(isEditable(r) ? 'Edit' : 'View', r) },
  ];
}

export function draftColumns(showVin: boolean, onDeleted: () => void): Column<RequestRecord>[] {
  return [
    requestNumber, requestType, clinician, ...(showVin ? [vin] : []),
    { header: 'Creation Date', cell: (r) => displayDate(r.createdAt) },
    { header: 'Modified Date', cell: (r) => displayDate(r.updatedAt) },
    {
      header: 'Action',
      className: 'cell--action',
      cell: (r) => (
        <div className="button-row button-row--tight">
          {rowLink('Edit', r)}
          {isDeletable(r) && (
            <DeleteRequestButton requestId={r.id} onDeleted={onDeleted} className="button button--small button--danger-outline" />
          )}
        </div>
      ),
    },
  ];
}

export function adminColumns(): Column<RequestRecord>[] {
  return [
    requestNumber,
    { header: 'Requester', cell: (r) => r.requesterName ?? r.requesterEmail ?? '—' },
    clinician,
    submissionDate,
    status,
    { header: 'Action', className: 'cell--action', cell: (r) => rowLink('View', r) },
  ];
}
