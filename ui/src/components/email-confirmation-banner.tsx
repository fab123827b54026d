import { useState } from 'react';
import { ApiError } from '../lib/api-client';
import { sendConfirmationLinkAgain } from '../lib/email-confirmation-api';
import type { User } from '../types/api';

/**
 * Shown while the signed-in user has an address to prove (issue #16): an unconfirmed email, or a change waiting for
 * its link. Until then nothing is granted by that address (no requests that merely name it, no administrator rights).
 */
export function EmailConfirmationBanner({ user }: { user: User }) {
  const [state, setState] = useState<{ kind: 'idle' | 'sending' | 'sent' | 'error'; message?: string }>({ kind: 'idle' });
  const address = user.pendingEmail ?? (user.emailConfirmed === false ? user.email : null);
  if (!address) return null;

  async function sendAgain() {
    setState({ kind: 'sending' });
    try {
      const { email } = await sendConfirmationLinkAgain();
      setState({ kind: 'sent', message: `A new link is on its way to ${email}.` });
    } catch (error) {
      setState({ kind: 'error', message: error instanceof ApiError ? error.message : 'The link could not be sent; please try again.' });
    }
  }

  return (
    <section className="alert alert--info email-banner" aria-label="Confirm your email address">
      <p><strong>Confirm your email address</strong></p>
      <p>
        {user.pendingEmail
          ? <>You asked to change your email address to <strong>{address}</strong>. We sent a confirmation link there; until it is used, {user.email} stays in force.</>
          : <>We sent a link to <strong>{address}</strong>. Until you use it, you see only the requests you filed yourself.</>}
      </p>
      <p className="button-row">
        <button type="button" className="button button--secondary" onClick={sendAgain} disabled={state.kind === 'sending'}>
          {state.kind === 'sending' ? 'Sending…' : 'Send the link again'}
        </button>
      </p>
      {state.message && <p role={state.kind === 'error' ? 'alert' : 'status'}>{state.message}</p>}
    </section>
  );
}
