import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '../../../../../domain';
import { ssoErrorMessage } from '../../../../../domain/single-sign-on';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { useAuth, type LoginState } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import type { User } from '../../../types/api';
import { LocalLoginForm } from './local-login-form';
import { SsoCard } from './sso-card';

/** Where a user goes after signing in: a forced password change first (spec 1 §2 Login). */
const landingFor = (user: User) => (user.mustChangePassword || user.isPswdExpired ? paths.password.getHref() : paths.home.getHref());

/** A token handed over by the single sign-on: `?token=` or `#access_token=` (spec 2 §7.2). */
function tokenFromUrl(search: URLSearchParams, hash: string): string | null {
  return search.get('token') ?? new URLSearchParams(hash.replace(/^#/, '')).get('access_token');
}

/** A single sign-on the API refused comes back as `#error=<code>` (spec 2 §7.2); only known codes are worded. */
function ssoErrorFromUrl(hash: string): string | null {
  const code = new URLSearchParams(hash.replace(/^#/, '')).get('error');
  return code ? ssoErrorMessage(code) : null;
}

export function LoginPage() {
  const { session, loginWithPassword, loginWithToken } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const state = (location.state ?? {}) as LoginState;
  const handedToken = tokenFromUrl(search, location.hash);
  const ssoError = ssoErrorFromUrl(location.hash);
  const [tryingToken, setTryingToken] = useState(Boolean(handedToken));

  useEffect(() => {
    if (!handedToken) return;
    let live = true;
    loginWithToken(handedToken)
      .then((user) => live && navigate(landingFor(user), { replace: true }))
      .catch(() => live && setTryingToken(false));
    return () => { live = false; };
    // Only the token present when the page opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (session.status === 'authenticated' && !tryingToken) return <Navigate to={landingFor(session.user)} replace />;
  if (session.status === 'checking' || tryingToken) return <Loading />;

  return (
    <section className="page">
      <h1>Login</h1>
      {state.authFail && <Alert kind="error">{MESSAGES.sessionExpired}</Alert>}
      {state.inactiveUser && <Alert kind="error">{MESSAGES.inactiveUser}</Alert>}
      {ssoError && <Alert kind="error">{ssoError}</Alert>}
      <div className="card-grid">
        <SsoCard />
        <LocalLoginForm onLogin={async (email, password) => navigate(landingFor(await loginWithPassword(email, password)), { replace: true })} />
      </div>
    </section>
  );
}
