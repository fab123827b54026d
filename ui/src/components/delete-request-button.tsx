import { MESSAGES } from '../../../domain';
import { useDeleteRequest } from '../lib/request-api';
import { ConfirmButton } from './ui/confirm-button';

/** Delete a draft after the spec's confirmation ("Yes, please!" / Cancel). */
export function DeleteRequestButton({ requestId, onDeleted, label = 'Delete', className }: {
  requestId: number;
  /** After the delete (the lists and counts that showed the draft are already marked stale). */
  onDeleted?: () => void;
  label?: string;
  className?: string;
}) {
  const remove = useDeleteRequest();
  return (
    <ConfirmButton label={label} message={MESSAGES.deleteConfirm} confirmLabel={MESSAGES.deleteConfirmYes}
      failureMessage={MESSAGES.deleteFailed} action={() => remove.mutateAsync(requestId)} onDone={() => onDeleted?.()} className={className} />
  );
}
