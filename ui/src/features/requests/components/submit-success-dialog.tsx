import { useModalDialog } from '../../../components/ui/use-modal-dialog';

export interface FollowUp {
  question: string;
  yesLabel: string;
  onYes: () => void;
}

/** The request number of a submit's answer (the request as stored), if it carries one. */
export const submittedNumber = (result: unknown): number | null =>
  (typeof result === 'object' && result !== null && typeof (result as { requestNumber?: unknown }).requestNumber === 'number'
    ? (result as { requestNumber: number }).requestNumber : null);

interface SubmitSuccessDialogProps {
  open: boolean;
  /** the number the request was submitted under, when the answer carried it */
  requestNumber?: number | null;
  /** the follow-up question of spec 1 §1, when one applies to this request */
  followUp?: FollowUp | null;
  /** OK, No thank you, or Escape: back to the dashboard */
  onClose: () => void;
}

/**
 * The submit-success modal (spec 1 §2 "Modals: … submit success"), shown after every submit: it says the request was
 * submitted under its number, and asks the follow-up question of spec 1 §1 when one applies. Escape closes it.
 */
export function SubmitSuccessDialog({ open, requestNumber, followUp, onClose }: SubmitSuccessDialogProps) {
  const ref = useModalDialog(open);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="submit-success-title" aria-describedby="submit-success-message"
      onCancel={(e) => { e.preventDefault(); onClose(); }}>
      <h2 id="submit-success-title">Your request was submitted</h2>
      <p id="submit-success-message" className="dialog__message">
        {requestNumber ? `Request ${requestNumber} is now with the Risk Management office. ` : ''}
        A confirmation email is on its way; you can follow the request from your dashboard.
      </p>
      {followUp && <p className="dialog__message">{followUp.question}</p>}
      <div className="button-row">
        {followUp
          ? <>
            <button type="button" className="button" onClick={followUp.onYes}>{followUp.yesLabel}</button>
            <button type="button" className="button button--secondary" onClick={onClose}>No, thank you</button>
          </>
          : <button type="button" className="button" onClick={onClose}>OK</button>}
      </div>
    </dialog>
  );
}
