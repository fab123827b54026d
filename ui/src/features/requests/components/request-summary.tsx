import { Link } from 'react-router-dom';
import { adminMayEditFields } from '../../../../../domain';
import { isEditable, requestEditHref, requestNumberLabel } from '../../../lib/request-labels';
import type { RequestRecord } from '../../../types/api';

interface RequestSummaryProps {
  request: RequestRecord;
  canEdit: boolean;
  /** Admin Edit of a certificate: its form page in admin mode. */
  adminEdit?: boolean;
  /** Admin Edit in place (credentialing): opens the form on this page. */
  onAdminEdit?: () => void;
}

/** "Request Number: N" and "Status: S", plus Edit for the requester while the request is editable. */
export function RequestSummary({ request, canEdit, adminEdit = false, onAdminEdit }: RequestSummaryProps) {
  // Admin Edit: not for finished (completed or closed) requests, nor drafts (the requester's own).
  const adminMayEdit = adminMayEditFields(request.status);
  return (
    <div className="request-summary">
      <p className="request-meta">Request Number: {requestNumberLabel(request)}</p>
      <p className="request-meta">Status: {request.status}</p>
      {canEdit && isEditable(request) && <Link className="button" to={requestEditHref(request)}>Edit</Link>}
      {adminEdit && adminMayEdit && <Link className="button button--secondary" to={requestEditHref(request)}>Admin Edit</Link>}
      {onAdminEdit && adminMayEdit && <button type="button" className="button button--secondary" onClick={onAdminEdit}>Admin Edit</button>}
    </div>
  );
}
