import { Link } from 'react-router-dom';
import { isEditable, requestEditHref, requestNumberLabel } from '../../../lib/request-labels';
import type { RequestRecord } from '../../../types/api';

/** "Request Number: N" and "Status: S", plus Edit for the requester while the request is editable. */
export function RequestSummary({ request, canEdit }: { request: RequestRecord; canEdit: boolean }) {
  return (
    <div className="request-summary">
      <p className="request-meta">Request Number: {requestNumberLabel(request)}</p>
      <p className="request-meta">Status: {request.status}</p>
      {canEdit && isEditable(request) && <Link className="button" to={requestEditHref(request)}>Edit</Link>}
    </div>
  );
}
