/**
 * The one fetch client (spec 2 §7.1): base `/api/v1`, bearer token from storage, JSON in and out, error bodies
 * thrown as ApiError. A 401 on an ordinary call means the session is gone: it goes to the registered handler (the
 * session provider), which applies spec 2 §8.1 (auth-errors.ts) and sends the user to /login. Other statuses, 403
 * included, are answers about the call and never end the session.
 */
import { ApiError, unavailableError } from './api-error';
import { toQueryString, type Query } from './query-string';
import { removesStoredToken } from './auth-errors';
import { readToken, removeToken } from './token-storage';

export { ApiError } from './api-error';

export const API_BASE = '/api/v1';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Calls whose 401 is an answer, not a lost session (sign-in, re-authentication). */
  skipAuthRedirect?: boolean;
}

let onUnauthorized: (error: ApiError) => void = (error) => {
  if (removesStoredToken(error)) removeToken();
  window.location.assign('/login');
};

/** The app decides where a lost session goes (registered once by the auth provider). */
export function setUnauthorizedHandler(handler: (error: ApiError) => void): void {
  onUnauthorized = handler;
}

async function send(method: Method, path: string, options: RequestOptions = {}): Promise<Response> {
  const query = options.query ? toQueryString(options.query) : '';
  const url = `${API_BASE}${path}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw unavailableError(error);
  }
  if (response.ok) return response;

  const error = new ApiError(response.status, await readJson(response).catch(() => ({})));
  if (response.status === 401 && !options.skipAuthRedirect) onUnauthorized(error);
  throw error;
}

async function readJson(response: Response): Promise<any> {
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

async function json<T>(method: Method, path: string, options?: RequestOptions): Promise<T> {
  const response = await send(method, path, options);
  return (await readJson(response)) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => json<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => json<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => json<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => json<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => json<T>('DELETE', path, options),
  /** Binary download with the same auth header. */
  blob: async (path: string, options?: RequestOptions): Promise<Blob> => (await send('GET', path, options)).blob(),
};
