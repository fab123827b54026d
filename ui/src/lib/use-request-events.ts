import { useEffect, useRef } from 'react';
import type { RequestEvent } from '../../../contract/request-events.schema';
import { subscribeToRequestEvents } from './request-events';

/**
 * Calls `onChange` (at most once per `debounceMs`, trailing) when a live event concerns what the page shows:
 * every request the user may see, or only request `requestId`. Pages reload through their ordinary calls.
 */
export function useRequestEvents(
  onChange: () => void,
  options: { requestId?: number; debounceMs?: number; kinds?: readonly RequestEvent['kind'][] } = {},
) {
  const onChangeRef = useRef(onChange);
  useEffect(() => { onChangeRef.current = onChange; });
  const { requestId, debounceMs = 250, kinds } = options;
  // `kinds`: only these events matter to the page (a report ignores messages and new drafts); `resync` always does.
  const kindsKey = kinds?.join(',');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const wanted = kindsKey?.split(',');
    const relevant = (event: RequestEvent) => event.kind === 'resync'
      || ((!wanted || wanted.includes(event.kind)) && (requestId === undefined || event.requestId === requestId));
    const unsubscribe = subscribeToRequestEvents((event) => {
      if (!relevant(event)) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => { timer = null; onChangeRef.current(); }, debounceMs);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [requestId, debounceMs, kindsKey]);
}
