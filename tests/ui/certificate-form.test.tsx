/**
 * The certificate request form in jsdom, no server: an external requester's Clinician
 * certificate, from the spec's messages to the create and submit calls and the success modal.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../domain';
import { serveRequests } from './support/canned-requests';
import { createFakeApi, type FakeApi } from './support/fake-api';
import { renderApp, requester } from './support/render-app';

const fake = vi.hoisted(() => ({ current: null as null | FakeApi }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fake.current!.api as Record<string, unknown>)[method] }),
}));

/** Puts a whole value in at once, like Playwright's fill (typing key by key re-renders the form per key). */
async function typeInto(user: ReturnType<typeof userEvent.setup>, name: string, value: string) {
  await user.click(field(name));
  await user.paste(value);
}

const field = (name: string) => document.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)!;

beforeEach(() => {
  const api = createFakeApi();
  fake.current = api;
  serveRequests(api, []);
  let version = 1;
  const stored = (body: unknown) => ({
    id: 77, requestNumber: 50077, requestType: 'certificate', certificateType: 'Clinician', status: 'Draft', version: version++,
    createdAt: '2026-11-26T10:00:00.000Z', updatedAt: '2026-11-26T10:00:00.000Z', documents: [], ...(body as object),
  });
  api.on('POST', '/requests', ({ body }) => stored(body));
  api.on('PATCH', '/requests/77', ({ body }) => stored(body));
  api.on('GET', '/requests/77', () => stored({}));
  api.on('GET', /^\/discussions/, { total: 0, limit: 10, skip: 0, data: [] });
});

describe('certificate request form (Clinician, external requester)', () => {
  it('shows the spec messages at Submit, then submits what was typed and says the number', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await renderApp(fake.current!, '/requests/certificate/new', requester, ['/']);
    expect(await screen.findByText('Certificate Type: Clinician')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please correct the fields marked below.')).toBeInTheDocument();
    expect(screen.getAllByText(MESSAGES.required, { exact: true }).length).toBeGreaterThan(3);
    expect(fake.current!.calls.filter((c) => c.method === 'POST' && c.path === '/requests')).toEqual([]);

    await typeInto(user, 'lastName', 'Okafor');
    await typeInto(user, 'firstName', 'Jordan');
    await typeInto(user, 'workPhone', '5034941234');
    expect(field('workPhone').value).toBe('503-494-1234');
    await typeInto(user, 'dateFrom', '01/01/2025');
    await typeInto(user, 'dateTo', '06/30/2025');
    await typeInto(user, 'facilityName', 'Mercy Hospital');
    await typeInto(user, 'certificateHolder', 'Mercy Hospital Credentialing');
    await typeInto(user, 'certificateHolderAddress', '100 SW Main St, Portland, OR 97204');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    const dialog = await screen.findByRole('dialog', { name: 'Your request was submitted' });
    expect(within(dialog).getByText(/Request 50077 is now with the Risk Management office/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'No, thank you' })).toBeNull(); // no follow-up for a certificate
    const api = fake.current!;
    const creates = api.callsTo('POST', '/requests');
    expect(creates).toHaveLength(1); // one draft, whichever of autosave and Submit came first
    expect(creates[0].body).toMatchObject({ requestType: 'certificate', certificateType: 'Clinician' });
    const submit = api.callsTo('PATCH', '/requests/77').at(-1)!;
    expect(submit.body).toMatchObject({
      status: 'Submitted', lastName: 'Okafor', firstName: 'Jordan', workPhone: '503-494-1234', facilityName: 'Mercy Hospital',
      certificateHolder: 'Mercy Hospital Credentialing',
    });
    expect(typeof (submit.body as { version?: unknown }).version).toBe('number');

    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });
});
