import { Link } from 'react-router-dom';
import { isFinished, STATUS } from '../../../../../domain';
import { isEditable, requestEditHref, requestNumberLabel } from '../../../lib/request-labels';
import type { RequestRecord } from '../../../types/api';

/** "Request Number: N" and "Status: S", plus Edit for the requester while the request is editable. */
export function RequestSummary({ request, canEdit, adminEdit = false }: { request: RequestRecord; canEdit: boolean; adminEdit?: boolean }) {
  // Admin Edit: not for finished (completed or closed) requests, nor drafts (the requester's own).
  const adminMayEdit = adminEdit && request.status !== STATUS.draft && !isFinished(request.status);
  return (
    <div className="request-summary">
      <p className="request-meta">Request Number: {requestNumberLabel(request)}</p>
      <p className="request-meta">Status: {request.status}</p>
      {canEdit && isEditable(request) && <Link className="button" to={requestEditHref(request)}>Edit</Link>}
      {adminMayEdit && <Link className="button button--secondary" to={requestEditHref(request)}>Admin Edit</Link>}
    </div>
  );
}
