import { useModalDialog } from './use-modal-dialog';

interface ConfirmDialogProps {
  open: boolean;
  message: string;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A modal question (native dialog: Escape cancels, focus stays inside). */
export function ConfirmDialog({ open, message, confirmLabel, cancelLabel = 'Cancel', busy, error, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useModalDialog(open);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="confirm-dialog-message"
      onCancel={(event) => { event.preventDefault(); onCancel(); }}
    >
      <p id="confirm-dialog-message" className="dialog__message">{message}</p>
      {error && <p role="alert" className="error-text">{error}</p>}
      <div className="button-row">
        <button type="button" className="button button--danger" onClick={onConfirm} disabled={busy}>{confirmLabel}</button>
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>{cancelLabel}</button>
      </div>
    </dialog>
  );
}
