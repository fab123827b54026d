import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { SessionCheckPending } from '../../components/ui/loading';
import { useAuth, type LoginState } from '../../lib/auth';
import { paths } from '../../lib/paths';
import { AppHeader } from './app-header';
import { PageSuspense } from './page-suspense';
import { MAIN_CONTENT_ID } from './skip-link';

/**
 * Layout of every signed-in screen. The session is validated with the server on each page (spec 1 §2): the
 * provider checks it on load, this layout again on every later navigation.
 */
export function AppLayout() {
  const { session, revalidate } = useAuth();
  const { pathname } = useLocation();
  const checkedPath = useRef(pathname);
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;

  useEffect(() => {
    if (pathname === checkedPath.current) return;
    checkedPath.current = pathname;
    void revalidateRef.current();
  }, [pathname]);

  if (session.status === 'anonymous') {
    // The same reason the session provider gave, so the login page says why (expired session or deactivated account).
    const state: LoginState = { ...session.loginState, from: pathname };
    return <Navigate to={paths.login.getHref()} replace state={state} />;
  }
  // A user whose password expired or must change is held to the password page (the server refuses every other call).
  if (session.status === 'authenticated' && (session.user.mustChangePassword || session.user.isPswdExpired)
    && pathname !== paths.password.getHref()) {
    return <Navigate to={paths.password.getHref()} replace />;
  }
  return (
    <>
      <AppHeader />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="app-main">
        {/* One boundary for both states, so the end of the check (a transition) keeps "Loading…" up while the
            screen's chunk arrives rather than mounting a new boundary that shows its own fallback. */}
        <PageSuspense>{session.status === 'checking' ? <SessionCheckPending retrying={session.retrying} /> : <Outlet />}</PageSuspense>
      </main>
    </>
  );
}
