import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { MESSAGES } from '../../../../../domain';
import type { ConfirmationAccount } from '../../../../../contract/email-confirmation.schema';
import type { Wire } from '../../../../../contract/wire';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { ApiError } from '../../../lib/api-client';
import { checkConfirmationLink, useConfirmEmailAddress } from '../api/email-confirmation';
import { displayDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';

type State = { kind: 'checking' | 'valid' | 'confirmed' | 'failed'; message?: string; account?: Wire<typeof ConfirmationAccount> };

/**
 * /login/confirm-email/{token}: uses an email-confirmation link. Works signed in or not (the link may be
 * opened on another device). The link is used by a button press, not by opening the page, so a mail scanner that
 * opens links does not spend it. The page names the account the address would go to (as that account typed its
 * names) and what confirming gives it, so the owner of a mailbox never confirms someone else's account blindly.
 */
export function ConfirmEmailPage() {
  const { token = '' } = useParams();
  const confirming = useConfirmEmailAddress();
  const [state, setState] = useState<State>({ kind: 'checking' });

  useEffect(() => {
    let live = true;
    checkConfirmationLink(token).then(
      ({ isValid, account }) => live && setState(isValid ? { kind: 'valid', account } : { kind: 'failed', message: MESSAGES.confirmationLinkInvalid }),
      () => live && setState({ kind: 'failed', message: MESSAGES.confirmationLinkInvalid }),
    );
    return () => { live = false; };
  }, [token]);

  function confirm() {
    confirming.mutate(token, {
      onSuccess: ({ email }) => setState({ kind: 'confirmed', message: `${MESSAGES.emailConfirmed} ${email} is the address of your account.` }),
      onError: (error) => setState({ kind: 'failed', message: error instanceof ApiError ? error.message : MESSAGES.confirmationLinkInvalid }),
    });
  }

  return (
    <section className="page page--narrow">
      <h1>Confirm Email Address</h1>
      {state.kind === 'checking' && <Loading />}
      {state.kind === 'valid' && (
        <div className="card">
          {state.account ? <AccountToConfirm account={state.account} /> : <p>Use this link to prove that this email address is yours.</p>}
          <div className="button-row">
            <button type="button" className="button" onClick={confirm} disabled={confirming.isPending}>
              {confirming.isPending ? 'Confirming…' : 'Confirm my email address'}
            </button>
            <Link to={paths.home.getHref()}>This is not my account</Link>
          </div>
        </div>
      )}
      {state.kind === 'confirmed' && <Alert kind="success">{state.message}</Alert>}
      {state.kind === 'failed' && <Alert kind="error">{state.message}</Alert>}
      {(state.kind === 'confirmed' || state.kind === 'failed') && <p><Link className="button" to={paths.home.getHref()}>Go to Dashboard</Link></p>}
    </section>
  );
}

function AccountToConfirm({ account }: { account: Wire<typeof ConfirmationAccount> }) {
  return (
    <>
      <p>An account asks to use <strong>{account.email}</strong> as its email address:</p>
      <dl className="details">
        <dt>Name</dt><dd>{account.firstName} {account.lastName}</dd>
        <dt>Company</dt><dd>{account.company ?? '—'}</dd>
        <dt>Registered</dt><dd>{displayDateTime(account.registeredAt)}</dd>
      </dl>
      <p>
        Confirming makes {account.email} {account.isChange ? 'the new' : 'the'} sign-in and contact address of this account: whoever knows its
        password signs in with it, receives its emails and sees the requests that name this address. It never gives administrator rights.
      </p>
      <p>If you do not recognise this account, do not confirm: close this page and nothing changes.</p>
    </>
  );
}
