/**
 * Recent Discussions above a request form (jsdom, no server): the form keeps its own copy of the request, so a reply
 * posted there reads the request's messages again, once, and not the request (which would reset nothing, but is a
 * call for nothing); the reply shows and what is typed in the form stays.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STATUS } from '../../domain';
import { serveRequests } from './support/canned-requests';
import { createFakeApi, type FakeApi } from './support/fake-api';
import { renderApp, requester } from './support/render-app';

const fake = vi.hoisted(() => ({ current: null as null | FakeApi }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fake.current!.api as Record<string, unknown>)[method] }),
}));

const message = (id: number, sender: string, text: string) => ({
  id, createdAt: `2026-11-2${id}T10:00:00.000Z`, requestId: 77, discussionId: 'THREADABCDEF', sender, senderEmail: 'someone@example.org',
  fromAdmin: sender === 'Risk Management', topic: 'Dates of coverage', message: text,
});

let messages: ReturnType<typeof message>[];

beforeEach(() => {
  const api = createFakeApi();
  fake.current = api;
  serveRequests(api, []);
  messages = [message(1, 'Risk Management', 'Please confirm the end date.')];
  const stored = () => ({
    id: 77, requestNumber: 50077, requestType: 'certificate', certificateType: 'Clinician', status: STATUS.pendingAdditionalInformation,
    version: 4, requesterId: requester.id, lastName: 'Okafor', createdAt: '2026-11-26T10:00:00.000Z', updatedAt: '2026-11-26T10:00:00.000Z',
    documents: [], discussions: structuredClone(messages),
  });
  api.on('GET', '/requests/77', stored);
  api.on('PATCH', '/requests/77', ({ body }) => ({ ...stored(), ...(body as object) })); // the autosave of what is typed
  api.on('GET', '/discussions', () => structuredClone(messages));
  api.on('POST', '/discussions', ({ body }) => {
    const posted = { ...message(messages.length + 1, 'Pat Requester', (body as { message: string }).message) };
    messages = [...messages, posted];
    return posted;
  });
});

describe('discussions on the request form', () => {
  it('a reply reads the messages again once, not the request, and the form keeps what was typed', async () => {
    const user = userEvent.setup({ delay: null });
    await renderApp(fake.current!, '/requests/certificate/77/edit', requester);
    const thread = await screen.findByRole('table', { name: 'Recent Discussions' });
    expect(within(thread).getByText('Please confirm the end date.')).toBeInTheDocument();
    const lastName = document.querySelector<HTMLInputElement>('[name="lastName"]')!;
    await user.clear(lastName);
    await user.type(lastName, 'Okafor-Reyes');
    expect(fake.current!.callsTo('GET', '/discussions')).toEqual([]); // the form's copy of the request had them

    await user.click(screen.getByRole('button', { name: 'Reply to Dates of coverage' }));
    const dialog = screen.getByRole('dialog', { name: 'Reply' });
    await user.type(within(dialog).getByLabelText(/^Message/), 'It ends on June 30.');
    await user.click(within(dialog).getByRole('button', { name: 'Post Message' }));

    await within(screen.getByRole('table', { name: 'Recent Discussions' })).findByText('It ends on June 30.');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reply' })).toBeNull());
    expect(fake.current!.callsTo('POST', '/discussions')).toHaveLength(1);
    expect(fake.current!.callsTo('GET', '/discussions').map((c) => c.query)).toEqual([{ requestId: 77 }]);
    expect(fake.current!.callsTo('GET', '/requests/77')).toHaveLength(1);
    expect(lastName.value).toBe('Okafor-Reyes');
  });
});
