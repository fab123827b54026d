/** The live event stream for component tests: `emit` reaches every listener the screens subscribed. */
import type { RequestEvent } from '../../../contract/request-events.schema';

type Listener = (event: RequestEvent) => void;

export function createFakeEvents() {
  const listeners = new Set<Listener>();
  return {
    listeners,
    emit(event: RequestEvent) { for (const listener of [...listeners]) listener(event); },
    subscribeToRequestEvents(listener: Listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
  };
}
