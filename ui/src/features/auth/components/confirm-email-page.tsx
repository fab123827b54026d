import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { MESSAGES } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { checkConfirmationLink, confirmEmailAddress } from '../../../lib/email-confirmation-api';
import { paths } from '../../../lib/paths';

type State = { kind: 'checking' | 'valid' | 'confirming' | 'confirmed' | 'failed'; message?: string };

/**
 * /login/confirm-email/{token}: uses an email-confirmation link (issue #16). Works signed in or not (the link may be
 * opened on another device). The link is used by a button press, not by opening the page, so a mail scanner that
 * opens links does not spend it.
 */
export function ConfirmEmailPage() {
  const { token = '' } = useParams();
  const { session, revalidate } = useAuth();
  const [state, setState] = useState<State>({ kind: 'checking' });

  useEffect(() => {
    let live = true;
    checkConfirmationLink(token).then(
      ({ isValid }) => live && setState(isValid ? { kind: 'valid' } : { kind: 'failed', message: MESSAGES.confirmationLinkInvalid }),
      () => live && setState({ kind: 'failed', message: MESSAGES.confirmationLinkInvalid }),
    );
    return () => { live = false; };
  }, [token]);

  async function confirm() {
    setState({ kind: 'confirming' });
    try {
      const { email } = await confirmEmailAddress(token);
      // Signed in here: the session learns at once that the address is proven (the banner goes, rights apply).
      if (session.status === 'authenticated') await revalidate();
      setState({ kind: 'confirmed', message: `${MESSAGES.emailConfirmed} ${email} is the address of your account.` });
    } catch (error) {
      setState({ kind: 'failed', message: error instanceof ApiError ? error.message : MESSAGES.confirmationLinkInvalid });
    }
  }

  return (
    <section className="page page--narrow">
      <h1>Confirm Email Address</h1>
      {state.kind === 'checking' && <Loading />}
      {(state.kind === 'valid' || state.kind === 'confirming') && (
        <div className="card">
          <p>Use this link to prove that this email address is yours.</p>
          <div className="button-row">
            <button type="button" className="button" onClick={confirm} disabled={state.kind === 'confirming'}>
              {state.kind === 'confirming' ? 'Confirming…' : 'Confirm my email address'}
            </button>
          </div>
        </div>
      )}
      {state.kind === 'confirmed' && <Alert kind="success">{state.message}</Alert>}
      {state.kind === 'failed' && <Alert kind="error">{state.message}</Alert>}
      {(state.kind === 'confirmed' || state.kind === 'failed') && <p><Link className="button" to={paths.home.getHref()}>Go to Dashboard</Link></p>}
    </section>
  );
}
