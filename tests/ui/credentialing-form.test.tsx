/**
 * The claim history request form in jsdom, no server: the kind's messages at Submit, the API's
 * field messages under their fields, and the submit command's body.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../domain';
import { createFakeApi, refuse } from './support/fake-api';
import { renderApp, requester } from './support/render-app';

const fake = vi.hoisted(() => ({ current: null as null | ReturnType<typeof import('./support/fake-api')['createFakeApi']> }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fake.current!.api as Record<string, unknown>)[method] }),
}));

/** A draft with everything but what each test fills in, and its signed release attached. */
const DRAFT = {
  id: 5, requestNumber: 50005, requestType: 'credentialing', status: 'Draft', version: 3, requesterId: requester.id,
  lastName: 'Okafor', firstName: 'Jordan', birthDate: '1980-04-12T12:00:00.000Z', dateFrom: '2021-01-01T12:00:00.000Z',
  dateTo: '2024-12-31T12:00:00.000Z', providerType: 'Current Employee/Fellow/Resident', reason: 'Future employment',
  releaseAuthorized: true, createdAt: '2026-11-20T10:00:00.000Z', updatedAt: '2026-11-20T10:00:00.000Z',
  documents: [{ id: 90, requestId: 5, name: 'signed-release.pdf', description: 'Signed release', origin: 'requester', createdAt: '2026-11-20T10:00:00.000Z' }],
  discussions: [],
};

beforeEach(() => {
  fake.current = createFakeApi();
  fake.current.on('GET', '/requests/5', DRAFT);
  fake.current.on('GET', /^\/discussions/, { total: 0, limit: 10, skip: 0, data: [] });
});

describe('claim history request form', () => {
  it('shows the spec messages at Submit and submits nothing', async () => {
    const user = userEvent.setup({ delay: null });
    await renderApp(fake.current!, '/requests/credentialing/new', requester);
    await screen.findByRole('button', { name: 'Submit' });
    await user.type(document.querySelector<HTMLInputElement>('input[name="birthDate"]')!, '13/45/1980');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getAllByText(MESSAGES.required, { exact: true }).length).toBeGreaterThan(2));
    expect(screen.getAllByText(MESSAGES.requestDateFormat, { exact: true }).length).toBeGreaterThan(0);
    expect(screen.getByText(MESSAGES.requiredDocuments, { exact: true })).toBeVisible();
    // The edit is still autosaved as a draft; nothing is submitted.
    expect(fake.current!.calls.filter((c) => (c.body as { status?: string } | undefined)?.status === 'Submitted')).toEqual([]);
  });

  it('submits the form on the version it loaded and asks the follow-up question', async () => {
    const api = fake.current!;
    api.on('PATCH', '/requests/5', ({ body }) => ({ ...DRAFT, ...(body as object), status: 'Submitted', version: 4 }));
    const user = userEvent.setup({ delay: null });
    await renderApp(api, '/requests/credentialing/5/edit', requester);
    const lastName = await screen.findByDisplayValue('Okafor');
    await user.clear(lastName);
    await user.type(lastName, 'Okafor-Reyes');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    const dialog = await screen.findByRole('dialog', { name: 'Your request was submitted' }, { timeout: 3000 });
    expect(within(dialog).getByText(/Request 50005 is now with the Risk Management office/)).toBeInTheDocument();
    expect(within(dialog).getByText('Do you also need a current Certificate of Insurance for this clinician?')).toBeInTheDocument();
    const patches = api.callsTo('PATCH', '/requests/5');
    expect(patches).toHaveLength(1); // the pending autosave went into the submit
    expect(patches[0].body).toMatchObject({ lastName: 'Okafor-Reyes', firstName: 'Jordan', status: 'Submitted', version: 3, releaseAuthorized: true });
  });

  it('puts the API\'s field messages under their fields', async () => {
    const api = fake.current!;
    api.on('PATCH', '/requests/5', refuse(400, { name: 'BadRequest', message: 'Invalid request', errors: { firstName: 'First name is not a name' } }));
    const user = userEvent.setup({ delay: null });
    await renderApp(api, '/requests/credentialing/5/edit', requester);
    await screen.findByDisplayValue('Okafor');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('First name is not a name')).toBeInTheDocument();
    expect(screen.getByText('Please correct the fields marked below.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Your request was submitted' })).toBeNull();
  });
});
