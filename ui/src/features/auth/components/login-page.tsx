import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '../../../../../domain';
import { SSO_HANDOFF_COOKIE, ssoErrorMessage } from '../../../../../domain/single-sign-on';
import { Alert } from '../../../components/ui/alert';
import { Loading, SessionCheckPending } from '../../../components/ui/loading';
import { useAuth, type LoginState } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import type { AuthResult, User } from '../../../types/api';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { LocalLoginForm } from './local-login-form';
import { SsoCard } from './sso-card';

/** Where a user goes after signing in: a forced password change first (spec 1 §2 Login). */
const landingFor = (user: User) => (user.mustChangePassword || user.isPswdExpired ? paths.password.getHref() : paths.home.getHref());

/** A token handed over by the single sign-on: `?token=` or `#access_token=` (spec 2 §7.2). */
function tokenFromUrl(search: URLSearchParams, hash: string): string | null {
  return search.get('token') ?? new URLSearchParams(hash.replace(/^#/, '')).get('access_token');
}

/**
 * Whether single sign-on handed the token to this very browser: the fragment's mark matches the short-lived cookie
 * the sign-in set here (domain/single-sign-on.ts).
 */
function handedOverHere(hash: string): boolean {
  const mark = new URLSearchParams(hash.replace(/^#/, '')).get('handoff');
  const cookie = document.cookie.split(';').map((part) => part.trim()).find((part) => part.startsWith(`${SSO_HANDOFF_COOKIE}=`));
  return Boolean(mark) && cookie?.slice(SSO_HANDOFF_COOKIE.length + 1) === mark;
}

/** A single sign-on the API refused comes back as `#error=<code>` (spec 2 §7.2); only known codes are worded. */
function ssoErrorFromUrl(hash: string): string | null {
  const code = new URLSearchParams(hash.replace(/^#/, '')).get('error');
  return code ? ssoErrorMessage(code) : null;
}

/**
 * Login (spec 1 §2). A token handed over in the address (`?token=`, or `#access_token=` from single sign-on) is taken
 * out of the address bar at once, so it stays in no history entry, bookmark or screen share. When a
 * different user is already signed in in this browser, the page asks before switching: a link carrying someone
 * else's token cannot silently swap the session. A token opened when nobody is signed in asks too ("Continue as
 * …?"): otherwise a link from elsewhere could sign a visitor in to an account of its choosing, whose requests and
 * uploads would then go to that account (login CSRF). Only single sign-on's own hand-over to this browser (the mark in
 * the fragment matching its cookie) is taken at once.
 */
export function LoginPage() {
  const { session, loginWithPassword, previewToken, adoptToken } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const state = (location.state ?? {}) as LoginState;
  // Read once, when the page opens: the address is cleaned right after.
  const [handedToken] = useState(() => tokenFromUrl(search, location.hash));
  const [handedOver] = useState(() => Boolean(handedToken) && handedOverHere(location.hash));
  const [continued, setContinued] = useState(false);
  const ssoError = ssoErrorFromUrl(location.hash);
  const [tryingToken, setTryingToken] = useState(Boolean(handedToken));
  const [handed, setHanded] = useState<AuthResult | null>(null);

  useEffect(() => {
    if (search.has('token') || location.hash) window.history.replaceState(window.history.state, '', location.pathname);
    document.cookie = `${SSO_HANDOFF_COOKIE}=; Path=/login; Max-Age=0; SameSite=Lax`; // a hand-over mark is good once
    // Only the address present when the page opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!handedToken) return;
    let live = true;
    previewToken(handedToken).then((result) => live && setHanded(result), () => live && setTryingToken(false));
    return () => { live = false; };
    // Only the token present when the page opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const current = session.status === 'authenticated' ? session.user : null;
  const mustAsk = handed !== null && current !== null && current.id !== handed.user.id;
  const mustConfirm = handed !== null && current === null && !handedOver && !continued;

  // Adopt the handed token once: adoptToken changes with every session, so the effect must not run it again.
  const adopted = useRef(false);
  useEffect(() => {
    // Nobody (else) signed in: take the handed token as before.
    if (!handed || session.status === 'checking' || mustAsk || mustConfirm || adopted.current) return;
    adopted.current = true;
    void adoptToken(handed).then((user) => navigate(landingFor(user), { replace: true }));
  }, [handed, session.status, mustAsk, mustConfirm, adoptToken, navigate]);

  if (mustAsk) {
    const name = (user: User) => `${user.firstName} ${user.lastName} (${user.email})`.trim();
    return (
      <section className="page">
        <h1>Login</h1>
        <ConfirmDialog
          open
          message={`You are signed in as ${name(current)}. Sign in as ${name(handed.user)} instead?`}
          confirmLabel="Switch user"
          cancelLabel={`Stay signed in as ${current.firstName}`}
          onConfirm={() => void adoptToken(handed).then((user) => navigate(landingFor(user), { replace: true }))}
          onCancel={() => navigate(landingFor(current), { replace: true })}
        />
      </section>
    );
  }
  if (mustConfirm && session.status !== 'checking') {
    const { firstName, lastName, email } = handed.user;
    const who = `${firstName} ${lastName}`.trim();
    return (
      <section className="page">
        <h1>Login</h1>
        <section className="card" aria-labelledby="continue-as-heading">
          <h2 id="continue-as-heading">Continue as {who ? `${who} (${email})` : email}?</h2>
          <p>The link you opened signs this browser in to that account. Continue only if the account is yours.</p>
          <div className="button-row">
            <button type="button" className="button" onClick={() => setContinued(true)}>Continue</button>
            <button type="button" className="button button--secondary" onClick={() => { setHanded(null); setTryingToken(false); }}>Cancel</button>
          </div>
        </section>
      </section>
    );
  }
  if (session.status === 'authenticated' && !tryingToken) return <Navigate to={landingFor(session.user)} replace />;
  if (session.status === 'checking') return <SessionCheckPending retrying={session.retrying} />;
  if (tryingToken) return <Loading />;

  return (
    <section className="page">
      <h1>Login</h1>
      {state.authFail && <Alert kind="error">{MESSAGES.sessionExpired}</Alert>}
      {state.inactiveUser && <Alert kind="error">{MESSAGES.inactiveUser}</Alert>}
      {ssoError && <Alert kind="error">{ssoError}</Alert>}
      <div className="card-grid">
        <SsoCard />
        <LocalLoginForm onLogin={async (email, password, altcha) => navigate(landingFor(await loginWithPassword(email, password, altcha)), { replace: true })} />
      </div>
    </section>
  );
}
