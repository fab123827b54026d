import type { Ref } from 'react';
import { Link } from 'react-router-dom';
import { adminMayEditFields } from '../../../../../domain';
import { DeleteRequestButton } from '../../../components/delete-request-button';
import { isDeletable, isEditable, requestEditHref, requestNumberLabel } from '../../../lib/request-labels';
import type { RequestRecord } from '../../../types/api';

interface RequestSummaryProps {
  request: RequestRecord;
  /** the caller filed it (or is the requester it names): Edit while editable, Delete while a never-submitted draft */
  canEdit: boolean;
  /** Admin Edit in place: opens the form on this page */
  onAdminEdit?: () => void;
  /** where focus returns when the in-place edit closes */
  adminEditRef?: Ref<HTMLButtonElement>;
  onDeleted?: () => void;
}

/** "Request Number: N" and "Status: S", plus Edit and Delete for the requester, Admin Edit for administrators. */
export function RequestSummary({ request, canEdit, onAdminEdit, adminEditRef, onDeleted }: RequestSummaryProps) {
  return (
    <div className="request-summary">
      <p className="request-meta">Request Number: {requestNumberLabel(request)}</p>
      <p className="request-meta">Status: {request.status}</p>
      {canEdit && isEditable(request) && <Link className="button" to={requestEditHref(request)}>Edit</Link>}
      {canEdit && onDeleted && isDeletable(request) && (
        <DeleteRequestButton requestId={request.id} onDeleted={onDeleted} className="button button--danger-outline" />
      )}
      {/* Not for finished (completed or closed) requests, nor drafts (their requester's own). */}
      {onAdminEdit && adminMayEditFields(request.status) && (
        <button ref={adminEditRef} type="button" className="button button--secondary" onClick={onAdminEdit}>Admin Edit</button>
      )}
    </div>
  );
}
