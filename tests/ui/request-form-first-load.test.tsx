/**
 * How a request form page reads its request (useFirstFetch, jsdom, no server): the first save's address change to
 * the edit address neither reloads nor remounts the form; a refetch of the same request (a live event, a save
 * elsewhere) leaves what is typed alone; and a screen opened again reads the server, not the cache.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../ui/src/lib/query-keys';
import { serveRequests } from './support/canned-requests';
import { createFakeApi, type FakeApi } from './support/fake-api';
import { renderApp, requester } from './support/render-app';

const fake = vi.hoisted(() => ({ current: null as null | FakeApi }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fake.current!.api as Record<string, unknown>)[method] }),
}));

const field = (name: string) => document.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
let serverLastName = 'Okafor';

beforeEach(() => {
  const api = createFakeApi();
  fake.current = api;
  serveRequests(api, []);
  serverLastName = 'Okafor';
  let version = 1;
  const stored = (body: unknown) => ({
    id: 77, requestNumber: 50077, requestType: 'certificate', certificateType: 'Clinician', status: 'Draft', version: version++,
    requesterId: requester.id, lastName: serverLastName, createdAt: '2026-11-26T10:00:00.000Z', updatedAt: '2026-11-26T10:00:00.000Z',
    documents: [], discussions: [], ...(body as object),
  });
  api.on('POST', '/requests', ({ body }) => stored(body));
  api.on('PATCH', '/requests/77', ({ body }) => stored(body));
  api.on('GET', '/requests/77', () => stored({}));
  api.on('GET', /^\/discussions/, { total: 0, limit: 10, skip: 0, data: [] });
});

describe('request form page: first load', () => {
  it('keeps the same form when the first save moves it to the edit address', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await renderApp(fake.current!, '/requests/certificate/new', requester);
    await screen.findByText('Certificate Type: Clinician');
    const input = field('firstName');
    await user.click(input);
    await user.paste('Jordan');
    await waitFor(() => expect(router.state.location.pathname).toBe('/requests/certificate/77/edit'), { timeout: 5000 });
    expect(field('firstName')).toBe(input); // not remounted
    expect(input.value).toBe('Jordan');
    expect(screen.getByText(/Request Number: 50077/)).toBeInTheDocument();
    expect(fake.current!.callsTo('GET', '/requests/77')).toEqual([]); // not reloaded
  });

  it('leaves what is typed alone when the request is refetched', async () => {
    const user = userEvent.setup({ delay: null });
    const { queryClient } = await renderApp(fake.current!, '/requests/certificate/77/edit', requester);
    await waitFor(() => expect(field('lastName')?.value).toBe('Okafor'));
    const input = field('lastName');
    await user.clear(input);
    await user.paste('Okafor-Reyes');
    serverLastName = 'Changed';
    await queryClient.invalidateQueries({ queryKey: queryKeys.requests.all });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(field('lastName')).toBe(input);
    expect(input.value).toBe('Okafor-Reyes');
    expect(fake.current!.callsTo('GET', '/requests/77')).toHaveLength(1);
  });

  it('reads the server again when the screen opens again, not the cached copy', async () => {
    const { router } = await renderApp(fake.current!, '/requests/certificate/77/edit', requester, ['/']);
    await waitFor(() => expect(field('lastName')?.value).toBe('Okafor'));
    await router.navigate('/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    serverLastName = 'Newer';
    await router.navigate('/requests/certificate/77/edit');
    await waitFor(() => expect(field('lastName')?.value).toBe('Newer'));
    expect(fake.current!.callsTo('GET', '/requests/77')).toHaveLength(2);
  });
});
