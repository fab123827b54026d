/**
 * The session (spec 2 §7.2): sign-in, re-authentication with the stored token on every page, sign-out. Lives inside
 * the router so a lost session can navigate to /login with state authFail.
 */
import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { MESSAGES } from '../../../domain';
import type { AuthResult, User } from '../types/api';
import { api, setUnauthorizedHandler } from './api-client';
import { endsSession, loginStateAfter, recheckDelayMs, removesStoredToken } from './auth-errors';
import { paths } from './paths';
import { readToken, removeToken, storeToken } from './token-storage';

export type Session =
  /** `retrying`: the last check failed for a reason that is not the session's (load, an outage); another follows. */
  | { status: 'checking'; user: null; retrying?: boolean }
  /** `loginState`: why the session ended (empty when nobody signed in), for the login page. */
  | { status: 'anonymous'; user: null; loginState: LoginState }
  | { status: 'authenticated'; user: User };

/** Navigation state the login page understands. */
export interface LoginState {
  authFail?: boolean;
  inactiveUser?: boolean;
  from?: string;
}

interface AuthContextValue {
  session: Session;
  /** `altcha`: a solved check, when the API asked for one (a full address window). */
  loginWithPassword: (email: string, password: string, altcha?: string) => Promise<User>;
  loginWithToken: (accessToken: string) => Promise<User>;
  /** Whose a handed-over token is, without signing in with it (the login page asks before switching users). */
  previewToken: (accessToken: string) => Promise<AuthResult>;
  /** Signs in with a token already checked by previewToken. */
  adoptToken: (result: AuthResult) => Promise<User>;
  /** Re-checks the stored token with the server; false (and a redirect to login) when the session is over. */
  revalidate: () => Promise<boolean>;
  logout: () => Promise<void>;
  /** After a password change: the server ended the old token and handed a new one with the refreshed user. */
  replaceSession: (accessToken: string, user: User) => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

const authenticate = (body: Record<string, string>) =>
  api.post<AuthResult>('/authentication', body, { skipAuthRedirect: true });

async function reauthenticate(): Promise<User> {
  const accessToken = readToken();
  if (!accessToken) throw new Error(MESSAGES.noAccessToken);
  const result = await authenticate({ strategy: 'jwt', accessToken });
  if (result.accessToken) storeToken(result.accessToken);
  return result.user;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  // What one user's screens loaded never shows to the next one in this tab.
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session>(() =>
    readToken() ? { status: 'checking', user: null } : { status: 'anonymous', user: null, loginState: {} });

  /**
   * A failed (re-)authentication: the session is reset and the user goes to login, saying why. The stored token is
   * removed only for the errors spec 2 §8.1 names (auth-errors.ts); a 503 keeps it for the next page load.
   */
  const expire = useCallback((error?: unknown) => {
    if (removesStoredToken(error)) removeToken();
    queryClient.clear();
    const state: LoginState = loginStateAfter(error);
    setSession({ status: 'anonymous', user: null, loginState: state });
    navigate(paths.login.getHref(), { replace: true, state });
  }, [navigate, queryClient]);

  useEffect(() => setUnauthorizedHandler(expire), [expire]);

  // Page load: validate a stored token before showing anything behind the login. Only an answer that the session is
  // over ends it; a refusal for load or an unreachable API is asked again, the token kept, until it answers.
  useEffect(() => {
    if (!readToken()) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = (failures: number) => reauthenticate().then(
      // A transition: if the screen's chunk is still arriving, the "Loading…" of the check stays up until it is
      // there, instead of React switching to a Suspense fallback and holding it for its 300 ms reveal throttle.
      (user) => live && startTransition(() => setSession({ status: 'authenticated', user })),
      (error) => {
        if (!live) return;
        if (endsSession(error)) return expire(error);
        setSession({ status: 'checking', user: null, retrying: true });
        timer = setTimeout(() => void check(failures + 1), recheckDelayMs(failures, error));
      },
    );
    void check(0);
    return () => { live = false; clearTimeout(timer); };
  }, [expire]);

  const signIn = useCallback(async (result: AuthResult) => {
    storeToken(result.accessToken);
    queryClient.clear();
    setSession({ status: 'authenticated', user: result.user });
    return result.user;
  }, [queryClient]);

  const value = useMemo<AuthContextValue>(() => ({
    session,
    loginWithPassword: async (email, password, altcha) => signIn(await authenticate({ strategy: 'local', email, password, ...(altcha ? { altcha } : {}) })),
    loginWithToken: async (accessToken) => signIn(await authenticate({ strategy: 'jwt', accessToken })),
    previewToken: (accessToken) => authenticate({ strategy: 'jwt', accessToken }),
    adoptToken: (result) => signIn(result),
    revalidate: async () => {
      try {
        const user = await reauthenticate();
        // Keep the same object when nothing changed, so screens do not re-render on every navigation.
        setSession((prev) => (prev.status === 'authenticated' && JSON.stringify(prev.user) === JSON.stringify(user)
          ? prev : { status: 'authenticated', user }));
        return true;
      } catch (error) {
        // A refusal for load (429) or an unreachable API is not an expired session: the user stays on the page, whose
        // own calls say what failed.
        if (!endsSession(error)) return true;
        expire(error);
        return false;
      }
    },
    replaceSession: (accessToken, user) => {
      storeToken(accessToken);
      setSession({ status: 'authenticated', user });
    },
    logout: async () => {
      try {
        await api.delete('/authentication', { skipAuthRedirect: true });
      } catch {
        // The token is dropped either way.
      }
      removeToken();
      queryClient.clear();
      setSession({ status: 'anonymous', user: null, loginState: {} });
      navigate(paths.login.getHref(), { replace: true });
    },
  }), [session, signIn, expire, navigate, queryClient]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}

/** The signed-in user; only for screens behind the protected layout. */
export function useUser(): User {
  const { session } = useAuth();
  if (session.status !== 'authenticated') throw new Error('useUser needs a signed-in user');
  return session.user;
}
