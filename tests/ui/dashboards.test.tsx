/**
 * The requester's and the administrator's dashboards in jsdom, no server: rows from canned
 * answers, paging, and a live event that reloads what the screen shows (and nothing when no event comes).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STATUS } from '../../domain';
import type { RequestRecord } from '../../ui/src/types/api';
import { row, serveRequests } from './support/canned-requests';
import { createFakeApi, type FakeApi } from './support/fake-api';
import { createFakeEvents } from './support/fake-events';
import { admin, renderApp, requester } from './support/render-app';

const fakes = vi.hoisted(() => ({ api: null as null | FakeApi, events: null as null | ReturnType<typeof import('./support/fake-events')['createFakeEvents']> }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fakes.api!.api as Record<string, unknown>)[method] }),
}));
vi.mock('../../ui/src/lib/request-events', () => ({
  subscribeToRequestEvents: (listener: (event: unknown) => void) => fakes.events!.subscribeToRequestEvents(listener),
}));

let rows: RequestRecord[];

beforeEach(() => {
  fakes.api = createFakeApi();
  fakes.events = createFakeEvents();
  rows = [];
  serveRequests(fakes.api, rows);
});

describe('requester dashboard', () => {
  it('lists the requests under their headings and pages In Progress 15 at a time', async () => {
    for (let i = 0; i < 20; i++) rows.push(row({ status: STATUS.submitted, lastName: `Inprogress${String(i).padStart(2, '0')}` }));
    rows.push(row({ status: STATUS.draft, lastName: 'Drafted' }));
    const user = userEvent.setup({ delay: null });
    await renderApp(fakes.api!, '/', requester);

    expect(await screen.findByRole('tab', { name: 'Submitted Requests (20)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Draft Requests (1)' })).toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'Pages of In Progress' });
    expect(within(pager).getByText('Showing 1–15 of 20')).toBeInTheDocument();
    expect(screen.getByText(/Inprogress00/)).toBeInTheDocument();
    expect(screen.queryByText(/Inprogress15/)).toBeNull();

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(await within(pager).findByText('Showing 16–20 of 20')).toBeInTheDocument();
    expect(screen.getByText(/Inprogress15/)).toBeInTheDocument();
    expect(screen.queryByText(/Inprogress00/)).toBeNull();
    const lastPage = fakes.api!.callsTo('GET', '/requests').at(-1)!;
    expect(lastPage.query).toMatchObject({ $skip: 15, $limit: 15 });
  });

  it('a live event reloads the lists once; without one nothing is asked again', async () => {
    rows.push(row({ status: STATUS.submitted, lastName: 'Firstone' }));
    await renderApp(fakes.api!, '/', requester);
    await screen.findByText(/Firstone/);
    const before = fakes.api!.callsTo('GET', '/requests').length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fakes.api!.callsTo('GET', '/requests')).toHaveLength(before); // no polling

    rows.push(row({ status: STATUS.submitted, lastName: 'Newcomer' }));
    fakes.events!.emit({ kind: 'created', requestId: rows.at(-1)!.id });
    fakes.events!.emit({ kind: 'activity', requestId: rows.at(-1)!.id });
    expect(await screen.findByText(/Newcomer/)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Submitted Requests (2)' })).toBeInTheDocument();
    // Two events in one burst: each of the four lists is asked once more.
    await waitFor(() => expect(fakes.api!.callsTo('GET', '/requests')).toHaveLength(before + 4));
  });
});

describe('admin dashboard', () => {
  const checklist = (policyYearEntered: boolean) => ({
    complete: policyYearEntered,
    items: [
      policyYearEntered
        ? { id: 'policyYear', label: 'Policy year in force today entered under Manage > Policies', done: true, detail: 'PL-2026, 07/01/2026 – 06/30/2027' }
        : { id: 'policyYear', label: 'Policy year in force today entered under Manage > Policies', done: false, detail: 'No policy year is on record: every certificate approval is refused until it is entered.' },
      { id: 'phone', label: 'Office phone set (RISK_MANAGEMENT_PHONE)', done: true, detail: '503-494-7700' },
    ],
  });
  const dashboard = (pending: number, policyYearEntered = true) => ({
    adminRequests: [], staleLetters: [], staleLettersTotal: 0, emailProblems: 0,
    requestCounts: { today: pending, monthToDate: pending, yearToDate: pending },
    queueCounts: [{ requestType: 'credentialing', status: STATUS.submitted, count: pending }],
    beforeFirstCertificate: checklist(policyYearEntered),
  });

  it('lists what is missing before the first certificate, with the way to Manage > Policies, until the server says it is complete', async () => {
    const api = fakes.api!;
    let policyYearEntered = false;
    api.on('GET', '/admin-dashboard', () => dashboard(0, policyYearEntered));
    await renderApp(api, '/', admin);

    const section = await screen.findByRole('region', { name: 'Before the first certificate' });
    const [policy, phone] = within(section).getAllByRole('listitem');
    expect(policy).toHaveTextContent('To do: No policy year is on record: every certificate approval is refused until it is entered.');
    expect(within(policy).getByRole('link', { name: 'Enter the policy years' })).toHaveAttribute('href', '/manage/policies');
    expect(phone).toHaveTextContent('Done: 503-494-7700');

    policyYearEntered = true;
    fakes.events!.emit({ kind: 'activity', requestId: 1 }); // any reload of the dashboard asks the server again
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Before the first certificate' })).toBeNull());
    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
  });

  it('shows the queue by heading with its counts, and a live event brings a new request in', async () => {
    const api = fakes.api!;
    for (let i = 0; i < 3; i++) rows.push(row({ status: STATUS.submitted, lastName: `Queued${i}` }));
    api.on('GET', '/admin-dashboard', () => dashboard(rows.length));
    await renderApp(api, '/', admin);

    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Claim History and Insurance Verification Requests (3)' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Pending Review' })).toBeInTheDocument();
    expect(await screen.findByText(/Queued2/)).toBeInTheDocument();

    rows.push(row({ status: STATUS.submitted, lastName: 'Arrived' }));
    fakes.events!.emit({ kind: 'created', requestId: rows.at(-1)!.id });
    expect(await screen.findByRole('tab', { name: 'Claim History and Insurance Verification Requests (4)' })).toBeInTheDocument();
    expect(await screen.findByText(/Arrived/)).toBeInTheDocument();
  });
});
