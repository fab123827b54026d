/**
 * Live changes from `GET /api/v1/events` (server-sent events): one stream per browser tab, shared by
 * every component that listens, opened while at least one listens. Read with fetch so the Bearer token travels in
 * the header like every call (EventSource cannot send headers, and a token in a URL ends up in logs). Reconnects
 * with backoff (1 s doubling to 30 s); after a reconnect every listener hears `resync`, since changes may have
 * been missed meanwhile. A 401 or an ended session stops the stream: the next ordinary call handles the session.
 */
import type { RequestEvent } from '../../../contract/request-events.schema';
import { API_BASE } from './api-client';
import { readToken } from './token-storage';

type Listener = (event: RequestEvent) => void;

const listeners = new Set<Listener>();
let controller: AbortController | null = null;

const notify = (event: RequestEvent) => { for (const listener of [...listeners]) listener(event); };

/** Splits a text/event-stream chunk buffer into complete events; returns what is left over. */
function drain(buffer: string, onEvent: (name: string, data: string) => void): string {
  let index: number;
  while ((index = buffer.indexOf('\n\n')) >= 0) {
    const block = buffer.slice(0, index);
    buffer = buffer.slice(index + 2);
    let name = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length) onEvent(name, data.join('\n'));
  }
  return buffer;
}

/** Reads the stream until it ends; resolves `stop` when the session is over (no reconnect). */
async function readOnce(signal: AbortSignal, onOpen: () => void): Promise<'stop' | 'retry'> {
  const token = readToken();
  if (!token) return 'stop';
  const response = await fetch(`${API_BASE}/events`, { headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}` }, signal });
  if (response.status === 401 || response.status === 403) return 'stop';
  if (!response.ok || !response.body) return 'retry';
  onOpen();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ended = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer = drain(buffer.replace(/\r\n/g, '\n') + value.replace(/\r\n/g, '\n'), (name, data) => {
      if (name === 'session-ended') ended = true;
      if (name !== 'request') return;
      try { notify(JSON.parse(data) as RequestEvent); } catch { /* not ours */ }
    });
  }
  return ended ? 'stop' : 'retry';
}

async function run(signal: AbortSignal): Promise<void> {
  let delay = 1000;
  let opened = false;
  while (!signal.aborted) {
    let outcome: 'stop' | 'retry' = 'retry';
    try {
      outcome = await readOnce(signal, () => {
        if (opened) notify({ kind: 'resync', requestId: null });
        opened = true;
        delay = 1000;
      });
    } catch {
      if (signal.aborted) return;
    }
    if (outcome === 'stop' || signal.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 30_000);
  }
}

/** Listen to live changes; returns the unsubscribe function. */
export function subscribeToRequestEvents(listener: Listener): () => void {
  listeners.add(listener);
  if (!controller) {
    controller = new AbortController();
    void run(controller.signal);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && controller) {
      controller.abort();
      controller = null;
    }
  };
}
