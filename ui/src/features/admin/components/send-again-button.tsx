import { useEffect, useRef } from 'react';
import { MESSAGES } from '../../../../../domain';
import { UI_TEXT } from '../../../lib/ui-text';
import { useSendEmail } from '../api/send-email';

interface SendAgainButtonProps {
  requestId: number;
  templateTitle: string;
  /** id of the 'Email Failed' audit row */
  retryOf: number;
}

/**
 * "Send again" on a failed email (administrators): queues it and says so. The write marks the audit trail and the
 * emails-not-sent list stale; the email's outcome arrives later as a live event.
 */
export function SendAgainButton({ requestId, templateTitle, retryOf }: SendAgainButtonProps) {
  const send = useSendEmail();
  const queued = send.isSuccess;
  const status = useRef<HTMLParagraphElement>(null);

  // The button is gone: keep keyboard focus on the message that replaced it.
  useEffect(() => { if (queued) status.current?.focus(); }, [queued]);

  const sendAgain = () => send.mutate({ requestId, templateTitle, retryOf });

  return (
    <div className="send-again">
      {!queued && (
        <button type="button" className="button button--secondary button--small" disabled={send.isPending}
          aria-label={`${UI_TEXT.sendAgain}: ${templateTitle}`} onClick={sendAgain}>
          {UI_TEXT.sendAgain}
        </button>
      )}
      <p ref={status} role="status" tabIndex={-1} className="send-again__status">
        {queued ? UI_TEXT.emailQueuedAgain : ''}
      </p>
      {send.isError && <p role="alert" className="error-text">{MESSAGES.genericPageError}</p>}
    </div>
  );
}
