import { useState } from 'react';
import { ConfirmDialog } from './confirm-dialog';

interface ConfirmButtonProps {
  label: string;
  message: string;
  confirmLabel: string;
  /** Shown in the dialog when `action` fails. */
  failureMessage: string;
  action: () => Promise<unknown>;
  onDone: () => void;
  className?: string;
}

/** A button that asks first, runs `action`, and keeps the dialog open with a message when it fails. */
export function ConfirmButton({ label, message, confirmLabel, failureMessage, action, onDone, className }: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await action();
      setOpen(false);
      onDone();
    } catch {
      setError(failureMessage);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className={className ?? 'button button--danger-outline'} onClick={() => { setError(null); setOpen(true); }}>
        {label}
      </button>
      <ConfirmDialog open={open} message={message} confirmLabel={confirmLabel} busy={busy} error={error}
        onConfirm={() => void confirm()} onCancel={() => setOpen(false)} />
    </>
  );
}
