import { useModalDialog } from '../../../components/ui/use-modal-dialog';

interface FollowUpDialogProps {
  open: boolean;
  question: string;
  yesLabel: string;
  onYes: () => void;
  onNo: () => void;
}

/** The submit-success modal with its follow-up question (spec 1 §1). Escape answers No. */
export function FollowUpDialog({ open, question, yesLabel, onYes, onNo }: FollowUpDialogProps) {
  const ref = useModalDialog(open);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="follow-up-title" onCancel={(e) => { e.preventDefault(); onNo(); }}>
      <h2 id="follow-up-title">Your request was submitted</h2>
      <p className="dialog__message">{question}</p>
      <div className="button-row">
        <button type="button" className="button" onClick={onYes}>{yesLabel}</button>
        <button type="button" className="button button--secondary" onClick={onNo}>No, thank you</button>
      </div>
    </dialog>
  );
}
