import { useEffect, useRef } from 'react';
import { MESSAGES } from '../../../../../domain';
import { UI_TEXT } from '../../../lib/ui-text';
import { useSendEmail } from '../api/send-email';

/** The worker needs a moment to send (or fail again) before the audit trail has a new row to show. */
const REFRESH_AFTER_MS = 2_000;

interface SendAgainButtonProps {
  requestId: number;
  templateTitle: string;
  /** id of the 'Email Failed' audit row */
  retryOf: number;
  /** Reloads the audit trail. */
  onQueued: () => void;
}

/** "Send again" on a failed email's audit row (administrators): queues it and says so, then refreshes the trail. */
export function SendAgainButton({ requestId, templateTitle, retryOf, onQueued }: SendAgainButtonProps) {
  const send = useSendEmail();
  const queued = send.isSuccess;
  const status = useRef<HTMLParagraphElement>(null);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(refreshTimer.current), []);
  // The button is gone: keep keyboard focus on the message that replaced it.
  useEffect(() => { if (queued) status.current?.focus(); }, [queued]);

  function sendAgain() {
    send.mutate({ requestId, templateTitle, retryOf }, { onSuccess: () => { refreshTimer.current = setTimeout(onQueued, REFRESH_AFTER_MS); } });
  }

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
