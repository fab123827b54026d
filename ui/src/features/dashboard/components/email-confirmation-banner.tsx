import { ApiError } from '../../../lib/api-client';
import type { User } from '../../../types/api';
import { useSendConfirmationLinkAgain } from '../api/send-confirmation-link';

/**
 * Shown while the signed-in user has an address to prove: an unconfirmed email, or a change waiting for
 * its link. Until then nothing is granted by that address (no requests that merely name it, no administrator rights).
 */
export function EmailConfirmationBanner({ user }: { user: User }) {
  const sending = useSendConfirmationLinkAgain();
  const address = user.pendingEmail ?? (user.emailConfirmed === false ? user.email : null);
  if (!address) return null;

  const { error } = sending;
  const message = sending.isSuccess ? `A new link is on its way to ${sending.data.email}.`
    : error ? (error instanceof ApiError ? error.message : 'The link could not be sent; please try again.') : null;

  return (
    <section className="alert alert--info email-banner" aria-label="Confirm your email address">
      <p><strong>Confirm your email address</strong></p>
      <p>
        {user.pendingEmail
          ? <>You asked to change your email address to <strong>{address}</strong>. We sent a confirmation link there; until it is used, {user.email} stays in force.</>
          : <>We sent a link to <strong>{address}</strong>. Until you use it, you see only the requests you filed yourself.</>}
      </p>
      <p className="button-row">
        <button type="button" className="button button--secondary" onClick={() => sending.mutate()} disabled={sending.isPending}>
          {sending.isPending ? 'Sending…' : 'Send the link again'}
        </button>
      </p>
      {message && <p role={error ? 'alert' : 'status'}>{message}</p>}
    </section>
  );
}
