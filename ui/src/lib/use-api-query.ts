import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { ApiError } from './api-error';

export type QueryState<T> =
  | { status: 'loading'; data: undefined; error: null }
  | { status: 'error'; data: T | undefined; error: ApiError }
  | { status: 'success'; data: T; error: null };

const asApiError = (error: unknown) =>
  error instanceof ApiError ? error : new ApiError(500, { message: error instanceof Error ? error.message : String(error) });

/**
 * Loads data when `deps` change. `refetch` reloads in the background and keeps the current data on screen
 * (used for polling after an admin status change).
 */
export function useApiQuery<T>(fetcher: (signal: AbortSignal) => Promise<T>, deps: DependencyList) {
  const [state, setState] = useState<QueryState<T>>({ status: 'loading', data: undefined, error: null });
  const [version, setVersion] = useState(0);
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;

  useEffect(() => {
    const controller = new AbortController();
    fetcherRef.current(controller.signal).then(
      (data) => setState({ status: 'success', data, error: null }),
      (error) => {
        if (!controller.signal.aborted) setState((prev) => ({ status: 'error', data: prev.data, error: asApiError(error) }));
      },
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, version]);

  const refetch = useCallback(() => setVersion((v) => v + 1), []);
  // Let callers patch the data after a save without another round trip.
  const setData = useCallback((data: T) => setState({ status: 'success', data, error: null }), []);
  return { ...state, refetch, setData };
}
