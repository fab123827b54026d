import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useModalDialog } from '../../../components/ui/use-modal-dialog';
import { paths } from '../../../lib/paths';
import { useCertificateReady } from '../hooks/use-certificate-ready';

export interface FollowUp {
  question: string;
  yesLabel: string;
  onYes: () => void;
}

/** The request id of a submit's answer (the request as stored), if it carries one. */
export const submittedId = (result: unknown): number | null =>
  (typeof result === 'object' && result !== null && typeof (result as { id?: unknown }).id === 'number' ? (result as { id: number }).id : null);

/** The request number of a submit's answer (the request as stored), if it carries one. */
export const submittedNumber = (result: unknown): number | null =>
  (typeof result === 'object' && result !== null && typeof (result as { requestNumber?: unknown }).requestNumber === 'number'
    ? (result as { requestNumber: number }).requestNumber : null);

interface SubmitSuccessDialogProps {
  open: boolean;
  /** the number the request was submitted under, when the answer carried it */
  requestNumber?: number | null;
  /** the submitted request: a certificate the office's rules issue at once is announced, and linked, as ready */
  requestId?: number | null;
  /** the follow-up question of spec 1 §1, when one applies to this request */
  followUp?: FollowUp | null;
  /** OK, No thank you, or Escape: back to the dashboard */
  onClose: () => void;
}

/**
 * The submit-success modal (spec 1 §2 "Modals: … submit success"), shown after every submit: it says the request was
 * submitted under its number, and asks the follow-up question of spec 1 §1 when one applies. Escape closes it. A
 * certificate the office's rules issue on submit is approved within seconds: while the dialog is open it watches the
 * request, and once it is approved with its letter stored the dialog says the certificate is ready and links it.
 */
export function SubmitSuccessDialog({ open, requestNumber, requestId, followUp, onClose }: SubmitSuccessDialogProps) {
  const ref = useModalDialog(open);
  // Ready for this request (a dialog opened again for another submit starts over).
  const [readyFor, setReadyFor] = useState<number | null>(null);
  const ready = open && !!requestId && readyFor === requestId;
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="submit-success-title" aria-describedby="submit-success-message"
      onCancel={(e) => { e.preventDefault(); onClose(); }}>
      <h2 id="submit-success-title">Your request was submitted</h2>
      {open && requestId ? <CertificateWatch requestId={requestId} onReady={() => setReadyFor(requestId)} /> : null}
      {/* A live region from the start, so that the change is announced when the certificate is ready. */}
      <div role="status">
        {ready ? (
          <p id="submit-success-message" className="dialog__message">
            <strong>Your certificate is ready.</strong> {requestNumber ? `Request ${requestNumber}` : 'Your request'} was approved and its
            certificate issued; a copy is on its way to you by email.{' '}
            <Link to={paths.certificate.view.getHref(requestId!)}>View the request and its certificate</Link>
          </p>
        ) : null}
      </div>
      {!ready && (
        <p id="submit-success-message" className="dialog__message">
          {requestNumber ? `Request ${requestNumber} is now with the Risk Management office. ` : ''}
          A confirmation email is on its way; you can follow the request from your dashboard.
        </p>
      )}
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

/** Watches the request while the dialog is open (its live events): mounted only then, so the form page keeps no stream. */
function CertificateWatch({ requestId, onReady }: { requestId: number; onReady: () => void }) {
  const ready = useCertificateReady(requestId);
  useEffect(() => { if (ready) onReady(); }, [ready, onReady]);
  return null;
}
