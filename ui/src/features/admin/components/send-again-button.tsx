import { useEffect, useRef, useState } from 'react';
import { MESSAGES } from '../../../../../domain';
import { UI_TEXT } from '../../../lib/ui-text';
import { sendEmailAgain } from '../api/send-email-again';

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

type SendState = 'idle' | 'sending' | 'queued' | 'failed';

/** "Send again" on a failed email's audit row (administrators): queues it and says so, then refreshes the trail. */
export function SendAgainButton({ requestId, templateTitle, retryOf, onQueued }: SendAgainButtonProps) {
  const [state, setState] = useState<SendState>('idle');
  const status = useRef<HTMLParagraphElement>(null);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(refreshTimer.current), []);
  // The button is gone: keep keyboard focus on the message that replaced it.
  useEffect(() => { if (state === 'queued') status.current?.focus(); }, [state]);

  async function send() {
    setState('sending');
    try {
      await sendEmailAgain({ requestId, templateTitle, retryOf });
      setState('queued');
      refreshTimer.current = setTimeout(onQueued, REFRESH_AFTER_MS);
    } catch {
      setState('failed');
    }
  }

  return (
    <div className="send-again">
      {state !== 'queued' && (
        <button type="button" className="button button--secondary button--small" disabled={state === 'sending'}
          aria-label={`${UI_TEXT.sendAgain}: ${templateTitle}`} onClick={() => void send()}>
          {UI_TEXT.sendAgain}
        </button>
      )}
      <p ref={status} role="status" tabIndex={-1} className="send-again__status">
        {state === 'queued' ? UI_TEXT.emailQueuedAgain : ''}
      </p>
      {state === 'failed' && <p role="alert" className="error-text">{MESSAGES.genericPageError}</p>}
    </div>
  );
}
