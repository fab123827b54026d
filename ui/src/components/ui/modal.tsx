import { type ReactNode } from 'react';
import { useModalDialog } from './use-modal-dialog';

interface ModalProps { open: boolean; title: string; onClose: () => void; children: ReactNode; wide?: boolean }

/** A modal window (native dialog: Escape closes it, focus stays inside), titled for screen readers. */
export function Modal({ open, title, onClose, children, wide }: ModalProps) {
  const ref = useModalDialog(open);
  const titleId = `modal-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog ref={ref} className={`dialog${wide ? ' dialog--wide' : ''}`} aria-labelledby={titleId}
      onCancel={(event) => { event.preventDefault(); onClose(); }}>
      {open && (
        <>
          <div className="dialog__header">
            <h2 id={titleId} className="dialog__title">{title}</h2>
            <button type="button" className="button button--secondary button--small" onClick={onClose} aria-label="Close">×</button>
          </div>
          {children}
        </>
      )}
    </dialog>
  );
}
