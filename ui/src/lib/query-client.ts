/**
 * The UI's server state (TanStack Query): one cache per tab, shared by every screen. Reads are keyed by resource
 * (query-keys.ts); two screens asking for the same key at once make one call. Live events (use-live-queries.ts)
 * mark what changed as stale instead of polling. A failed read is tried again only when the failure may pass (the
 * server unreachable or overloaded): a 4xx is an answer and is shown at once.
 */
import { QueryClient, keepPreviousData } from '@tanstack/react-query';
import { ApiError } from './api-error';

/** 502/503/504 and a refused connection (api-client turns it into 503) may pass; everything else is an answer. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
const MAX_RETRIES = 2;

export function isTransient(error: unknown): boolean {
  return error instanceof ApiError ? TRANSIENT_STATUSES.has(error.code) : false;
}

export const shouldRetry = (failureCount: number, error: unknown): boolean => failureCount < MAX_RETRIES && isTransient(error);

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: (attempt) => Math.min(500 * 2 ** attempt, 4000),
        // Fresh until a live event or a save says otherwise; a screen opened again shows the cache and reloads.
        staleTime: 0,
        // The live event stream already tells a tab what changed; a focus change is no news.
        refetchOnWindowFocus: false,
        // A screen whose key changes (another page, filter or type) keeps its rows until the new ones arrive.
        placeholderData: keepPreviousData,
      },
      mutations: { retry: false },
    },
  });
}

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}
