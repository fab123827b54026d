/**
 * Manage Request's Save in jsdom, no server: the command is made on the version the page shows, the answer's version
 * is the next command's, "Saving..." then "Save Successful", a stale version (409) says so and offers the reload,
 * and a save marks the request's audit trail stale (read again without a reload) while its answer, not a second read,
 * is the page's copy of the request.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STATUS } from '../../domain';
import { UI_TEXT } from '../../ui/src/lib/ui-text';
import type { RequestRecord } from '../../ui/src/types/api';
import { row, serveRequests } from './support/canned-requests';
import { createFakeApi, refuse, type FakeApi } from './support/fake-api';
import { createFakeEvents } from './support/fake-events';
import { admin, renderApp } from './support/render-app';

const fakes = vi.hoisted(() => ({ api: null as null | FakeApi, events: null as null | ReturnType<typeof import('./support/fake-events')['createFakeEvents']> }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fakes.api!.api as Record<string, unknown>)[method] }),
}));
vi.mock('../../ui/src/lib/request-events', () => ({
  subscribeToRequestEvents: (listener: (event: unknown) => void) => fakes.events!.subscribeToRequestEvents(listener),
}));

let stored: RequestRecord;

beforeEach(() => {
  fakes.api = createFakeApi();
  fakes.events = createFakeEvents();
  serveRequests(fakes.api, []);
  stored = { ...row({ status: STATUS.submitted, requestType: 'certificate', certificateType: 'Clinician' }), version: 3, documents: [], discussions: [] };
  fakes.api.on('GET', `/requests/${stored.id}`, () => structuredClone(stored));
  // The PATCH answer has no related lists; the version moves on with every save.
  fakes.api.on('PATCH', `/requests/${stored.id}`, ({ body }) => {
    const { version: _seen, ...changes } = body as Record<string, unknown>;
    stored = { ...stored, ...changes, version: stored.version + 1 };
    const { documents: _d, discussions: _m, ...answer } = stored;
    return answer;
  });
  fakes.api.on('GET', '/request-activity', { total: 0, limit: 10, skip: 0, data: [] });
  fakes.api.on('GET', `/requests/${stored.id}/certificates`, { items: [] });
});

const panel = () => within(screen.getByRole('region', { name: 'Manage Request' }));
const patches = () => fakes.api!.callsTo('PATCH', `/requests/${stored.id}`).map((c) => c.body as Record<string, unknown>);

describe('Manage Request', () => {
  it('saves on the version shown, then on the version the save answered, and says Save Successful', async () => {
    const user = userEvent.setup({ delay: null });
    await renderApp(fakes.api!, `/requests/certificate/${stored.id}`, admin);
    await screen.findByRole('region', { name: 'Manage Request' });
    const auditReads = fakes.api!.callsTo('GET', '/request-activity').length;

    await user.type(panel().getByLabelText('Internal Notes'), 'first');
    await user.click(panel().getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(panel().getByRole('status')).toHaveTextContent(UI_TEXT.saveSuccessful));
    expect(patches()[0]).toMatchObject({ internalNotes: 'first', version: 3 });
    // The save marked the audit trail stale: it is read again without a reload.
    await waitFor(() => expect(fakes.api!.callsTo('GET', '/request-activity').length).toBeGreaterThan(auditReads));

    await user.type(panel().getByLabelText('Internal Notes'), ' and second');
    await user.click(panel().getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches()).toHaveLength(2));
    expect(patches()[1]).toMatchObject({ internalNotes: 'first and second', version: 4 });
    await waitFor(() => expect(panel().getByRole('status')).toHaveTextContent(UI_TEXT.saveSuccessful));
  });

  it('shows the answer of a Save without reading the request or its letters again, and reads the audit trail once', async () => {
    const user = userEvent.setup({ delay: null });
    await renderApp(fakes.api!, `/requests/certificate/${stored.id}`, admin);
    await screen.findByRole('region', { name: 'Manage Request' });
    await waitFor(() => expect(fakes.api!.callsTo('GET', `/requests/${stored.id}/certificates`)).toHaveLength(1));
    const reads = () => ({
      request: fakes.api!.callsTo('GET', `/requests/${stored.id}`).length,
      letters: fakes.api!.callsTo('GET', `/requests/${stored.id}/certificates`).length,
      audit: fakes.api!.callsTo('GET', '/request-activity').length,
    });
    const before = reads();

    await user.selectOptions(panel().getByLabelText('Status'), STATUS.pendingAdditionalInformation);
    await user.click(panel().getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(panel().getByRole('status')).toHaveTextContent(UI_TEXT.saveSuccessful));

    expect(patches()[0]).toMatchObject({ status: STATUS.pendingAdditionalInformation, version: 3 });
    expect(screen.getByText(`Status: ${STATUS.pendingAdditionalInformation}`)).toBeInTheDocument(); // from the answer
    expect(reads()).toEqual({ request: before.request, letters: before.letters, audit: before.audit + 1 });
  });

  it('answers a stale version (409) with the reload, not with Save Successful', async () => {
    fakes.api!.on('PATCH', `/requests/${stored.id}`, refuse(409, { message: 'Conflict' }));
    const user = userEvent.setup({ delay: null });
    await renderApp(fakes.api!, `/requests/certificate/${stored.id}`, admin);
    await screen.findByRole('region', { name: 'Manage Request' });

    await user.click(panel().getByRole('button', { name: 'Save' }));
    expect(await panel().findByText(UI_TEXT.staleRequest)).toBeInTheDocument();
    expect(panel().getByRole('button', { name: UI_TEXT.reloadPage })).toBeEnabled();
    expect(panel().getByRole('status')).toHaveTextContent('');
    expect(panel().getByRole('button', { name: 'Save' })).toBeEnabled();
  });
});
