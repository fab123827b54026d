import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { RequestEvent } from '../../../contract/request-events.schema';
import { useRequestEvents } from './use-request-events';

/**
 * Marks `queryKeys` stale when a live event concerns what the screen shows (every request, or only `requestId`):
 * the screen's active queries reload through their ordinary calls, once per burst of events (useRequestEvents
 * debounces). This replaces polling: the stream says when the workflow has written a status, a letter, an email
 * or a message.
 */
export function useLiveQueries(queryKeys: readonly QueryKey[], options: { requestId?: number; kinds?: readonly RequestEvent['kind'][] } = {}) {
  const queryClient = useQueryClient();
  useRequestEvents(() => {
    for (const queryKey of queryKeys) void queryClient.invalidateQueries({ queryKey });
  }, options);
}
