import { MESSAGES } from '../../../domain';
import { deleteRequest } from '../lib/request-api';
import { ConfirmButton } from './ui/confirm-button';

/** Delete a draft after the spec's confirmation ("Yes, please!" / Cancel). */
export function DeleteRequestButton({ requestId, onDeleted, label = 'Delete', className }: {
  requestId: number;
  onDeleted: () => void;
  label?: string;
  className?: string;
}) {
  return (
    <ConfirmButton label={label} message={MESSAGES.deleteConfirm} confirmLabel={MESSAGES.deleteConfirmYes}
      failureMessage={MESSAGES.deleteFailed} action={() => deleteRequest(requestId)} onDone={onDeleted} className={className} />
  );
}
