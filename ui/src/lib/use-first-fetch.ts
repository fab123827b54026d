import { useState } from 'react';
import { hashKey, useQuery, type QueryKey } from '@tanstack/react-query';
import { ApiError } from './api-error';

export type FirstFetch<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: ApiError };

const LOADING = { status: 'loading' } as const;

/**
 * The first answer a screen gets for `queryKey` after it opens (or after the key changes), then kept: for forms that
 * start from the server's copy and own their values from there on (a request form, a profile). Why not the query's
 * data itself:
 * - a cached copy (the view page read it minutes ago) may be older than the server's, and the form would save on its
 *   old version: nothing is taken before a fetch made since this screen opened (`refetchOnMount: 'always'` and
 *   `isFetchedAfterMount`), as the hand-written fetch did;
 * - a later refetch (a live event or a save elsewhere invalidating the key) must not hand the form a new record,
 *   which would reset or remount it: once kept, the answer stays and the query is disabled (no refetch at all).
 * The returned object is the same one render after render until the key changes, so a caller can tell when it is new.
 */
export function useFirstFetch<T>({ queryKey, queryFn, enabled }: {
  queryKey: QueryKey;
  queryFn: (context: { signal: AbortSignal }) => Promise<T>;
  enabled: boolean;
}): FirstFetch<T> {
  const hash = hashKey(queryKey);
  const [kept, setKept] = useState<{ hash: string; result: FirstFetch<T> } | null>(null);
  const have = enabled && kept?.hash === hash ? kept.result : null;
  const query = useQuery({
    queryKey, queryFn, enabled: enabled && !have, refetchOnMount: 'always',
    // Another key's data is not this one's: wait for the answer instead.
    placeholderData: undefined,
  });
  // Adjusting state while rendering (React's pattern for "remember what arrived"): React renders again at once.
  if (enabled && !have && query.isFetchedAfterMount && !query.isPlaceholderData) {
    if (query.status === 'success') setKept({ hash, result: { status: 'ready', data: query.data } });
    else if (query.status === 'error') {
      const error: unknown = query.error;
      setKept({ hash, result: { status: 'error', error: error instanceof ApiError ? error : new ApiError(500) } });
    }
  }
  return have ?? LOADING;
}
