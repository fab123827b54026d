/**
 * The UI's one write helper (ui/src/lib/use-invalidating-mutation.ts) in jsdom, with the real api client over a
 * fetch stub that counts every call: after a write the keys it names are read again, once each, and only while a
 * screen shows them; the key the answer is put in is not read again even when a wider named key covers it; the write
 * is done once the new data has arrived; a failed write leaves the cache exactly as it was; and the answer goes where
 * the render that made the write said, though the screen has moved on to another thing before it came.
 */
import { QueryClientProvider, useQuery, type QueryClient } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../ui/src/lib/api-client';
import { createQueryClient } from '../../ui/src/lib/query-client';
import { useInvalidatingMutation, type InvalidatingMutationOptions } from '../../ui/src/lib/use-invalidating-mutation';

interface Thing { id: number; name: string; version: number }

/** The server: what each GET answers now, every call made, and whether the next PATCH is refused. */
let server: {
  thing: Thing; list: Thing[]; others: string[]; archived: string[]; refusePatch: boolean; calls: string[];
  /** When set, a PATCH is answered only once this promise resolves. */
  holdPatch: Promise<void> | null;
};

beforeEach(() => {
  server = { thing: { id: 1, name: 'First', version: 1 }, list: [{ id: 1, name: 'First', version: 1 }], others: ['unrelated'], archived: ['old'], refusePatch: false, calls: [], holdPatch: null };
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    const path = url.replace('/api/v1', '');
    server.calls.push(`${method} ${path}`);
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (method === 'PATCH') {
      await server.holdPatch;
      if (server.refusePatch) return json(409, { name: 'Conflict', message: 'Changed meanwhile', code: 409 });
      const changes = JSON.parse(String(init.body)) as Partial<Thing>;
      server.thing = { ...server.thing, ...changes, version: server.thing.version + 1 };
      server.list = [server.thing];
      return json(200, server.thing);
    }
    const bodies: Record<string, unknown> = { '/things/1': server.thing, '/things': server.list, '/others': server.others, '/archived': server.archived };
    return json(200, bodies[path]);
  });
});
afterEach(() => { vi.unstubAllGlobals(); });

const keys = {
  all: ['things'] as const,
  detail: ['things', 'detail', 1] as const,
  list: ['things', 'list'] as const,
  others: ['others'] as const,
  archived: ['archived'] as const,
};
const count = (call: string) => server.calls.filter((c) => c === call).length;
const rename = (name: string) => api.patch<Thing>('/things/1', { name });

/** A screen showing the thing, the list and something unrelated, with one write on it. */
function renderScreen(client: QueryClient, options: Omit<InvalidatingMutationOptions<Thing, string>, 'mutationFn'>) {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => ({
    thing: useQuery({ queryKey: keys.detail, queryFn: ({ signal }) => api.get<Thing>('/things/1', { signal }) }),
    list: useQuery({ queryKey: keys.list, queryFn: ({ signal }) => api.get<Thing[]>('/things', { signal }) }),
    others: useQuery({ queryKey: keys.others, queryFn: ({ signal }) => api.get<string[]>('/others', { signal }) }),
    write: useInvalidatingMutation({ mutationFn: rename, ...options }),
  }), { wrapper });
}

/** A client whose cache also holds a key no screen shows (read earlier, its screen closed). */
async function clientWithArchive() {
  const client = createQueryClient();
  await client.fetchQuery({ queryKey: keys.archived, queryFn: () => api.get<string[]>('/archived') });
  return client;
}

async function shown(view: ReturnType<typeof renderScreen>) {
  await waitFor(() => expect(view.result.current.thing.data && view.result.current.list.data && view.result.current.others.data).toBeTruthy());
}

describe('useInvalidatingMutation', () => {
  it('reads each named key a screen shows again once, even when two named keys cover it, and nothing else', async () => {
    const client = await clientWithArchive();
    const view = renderScreen(client, { invalidates: [keys.all, keys.list, keys.archived] });
    await shown(view);
    const before = [...server.calls];

    await act(() => view.result.current.write.mutateAsync('Renamed'));

    expect(server.calls.slice(before.length).sort()).toEqual(['GET /things', 'GET /things/1', 'PATCH /things/1']);
    // Done means current: the cache the screen reads already holds what the server now holds.
    expect(client.getQueryData<Thing>(keys.detail)?.name).toBe('Renamed');
    expect(client.getQueryData<Thing[]>(keys.list)?.[0].name).toBe('Renamed');
    // A named key no screen shows is marked stale and read when a screen shows it again, not now.
    expect(client.getQueryState(keys.archived)?.isInvalidated).toBe(true);
    expect(count('GET /archived')).toBe(1);
    expect(client.getQueryState(keys.others)?.isInvalidated).toBe(false);
    expect(count('GET /others')).toBe(1);
  });

  it('puts the answer in its key and does not read that key again, though a wider named key covers it', async () => {
    const client = await clientWithArchive();
    const view = renderScreen(client, {
      setsAnswer: (answer) => ({ queryKey: keys.detail, update: () => answer }),
      invalidates: [keys.all],
    });
    await shown(view);
    const readsOfThing = count('GET /things/1');
    const readsOfList = count('GET /things');

    await act(() => view.result.current.write.mutateAsync('Answered'));

    expect(client.getQueryData(keys.detail)).toEqual({ id: 1, name: 'Answered', version: 2 });
    expect(count('GET /things/1')).toBe(readsOfThing);
    expect(client.getQueryState(keys.detail)?.isInvalidated).toBe(false);
    expect(count('GET /things')).toBe(readsOfList + 1);
    expect(client.getQueryData<Thing[]>(keys.list)?.[0].name).toBe('Answered');
    await waitFor(() => expect(view.result.current.thing.data?.name).toBe('Answered'));
  });

  it('leaves the cache as it was when the write fails', async () => {
    const client = await clientWithArchive();
    const view = renderScreen(client, {
      setsAnswer: (answer) => ({ queryKey: keys.detail, update: () => answer }),
      invalidates: [keys.all, keys.others, keys.archived],
    });
    await shown(view);
    const cached = [keys.detail, keys.list, keys.others, keys.archived].map((key) => client.getQueryData(key));
    const callsBefore = server.calls.length;
    server.refusePatch = true;

    await act(async () => {
      await expect(view.result.current.write.mutateAsync('Refused')).rejects.toMatchObject({ code: 409 });
    });

    expect(server.calls.slice(callsBefore)).toEqual(['PATCH /things/1']);
    [keys.detail, keys.list, keys.others, keys.archived].forEach((key, i) => {
      expect(client.getQueryData(key)).toBe(cached[i]); // the very same data, not a copy read again
      expect(client.getQueryState(key)?.isInvalidated).toBe(false);
    });
    await waitFor(() => expect(view.result.current.write.error?.code).toBe(409));
  });

  it('puts the answer where the render that made the write said, though the screen shows another thing when it comes', async () => {
    const client = createQueryClient();
    const detailOf = (id: number) => ['things', 'detail', id] as const;
    client.setQueryData(detailOf(2), { id: 2, name: 'Second', version: 7 });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    // The same component, shown for thing 1 and then for thing 2 (a client-side navigation between two requests).
    const view = renderHook(({ id }: { id: number }) => useInvalidatingMutation({
      mutationFn: (name: string) => api.patch<Thing>(`/things/${id}`, { name }),
      setsAnswer: (answer) => ({ queryKey: detailOf(id), update: () => answer }),
      invalidates: [],
    }), { wrapper, initialProps: { id: 1 } });
    let answerPatch!: () => void;
    server.holdPatch = new Promise((resolve) => { answerPatch = resolve; });

    let written!: Promise<Thing>;
    act(() => { written = view.result.current.mutateAsync('Renamed while leaving'); });
    await waitFor(() => expect(server.calls).toContain('PATCH /things/1'));
    view.rerender({ id: 2 });
    answerPatch();
    await act(() => written);

    expect(client.getQueryData(detailOf(1))).toEqual({ id: 1, name: 'Renamed while leaving', version: 2 });
    expect(client.getQueryData(detailOf(2))).toEqual({ id: 2, name: 'Second', version: 7 });
  });
});
