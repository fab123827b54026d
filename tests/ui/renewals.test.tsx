/**
 * The Renewals page (/manage/renewals) in jsdom, the API faked: the candidates grouped by holder with what the rules
 * say of each and why, the refusal when no next policy year is on record, a run started on the ticked certificates,
 * and a run's progress bar, its controls, its certificates and its result.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Candidates, RenewalRun } from '../../ui/src/features/renewals/renewals-api';
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

const YEAR_26 = { id: 7, label: '2026–2027', startDate: '2026-07-01', endDate: '2027-06-30' };
const YEAR_27 = { id: 8, label: '2027–2028', startDate: '2027-07-01', endDate: '2028-06-30' };
const candidate = (requestId: number, holder: string, requester: string, verdict: Candidates['data'][number]['verdict'], reason: string): Candidates['data'][number] => ({
  requestId, requestNumber: 500000 + requestId, certificateType: 'Contracts/Lease', subtypeLabel: 'Contracts/Lease', holder, requester,
  requesterEmail: `${requester.split(' ')[0].toLowerCase()}@clinic.example`, verificationCode: `AAAA-BBBB-${10000 + requestId}`,
  coverageEndsOn: '2027-06-30', newPeriod: { from: '2027-07-01', to: '2028-06-30' }, preference: null, verdict, reason,
});
const CANDIDATES: Candidates = {
  years: [YEAR_26, YEAR_27], policyYear: YEAR_27, window: { from: '2027-05-31', to: '2027-06-30' }, refusal: null,
  summary: { renew: 2, notRenewing: 1, doesNotFit: 1, renewed: 0 },
  data: [
    candidate(101, 'Acme Arena', 'Pat Requester, Clinic', 'renew', 'Standing contract'),
    candidate(102, 'Acme Arena', 'Sam Other, Lab', 'doesNotFit', 'No policy year on record covers 07/01/2028 – 12/31/2028.'),
    candidate(103, 'Blue Hall', 'Pat Requester, Clinic', 'renew', 'Lease runs to 12/31/2029'),
    candidate(104, 'Blue Hall', 'Sam Other, Lab', 'notRenewing', 'Lease expires 05/31/2027'),
  ],
  truncated: false,
};
const PROGRESS = { total: 10, done: 4, waiting: 1, failed: 1, remaining: 4, notRenewed: 0, asked: 0, percent: 50 };
const run = (extra: Partial<RenewalRun> = {}): RenewalRun => ({
  id: 5, policyYear: YEAR_27, mode: 'renew', answerBy: null, window: CANDIDATES.window!, state: 'running', createdBy: 'Ada Admin',
  createdAt: '2027-06-01T17:00:00.000Z', finishedAt: null, progress: PROGRESS, ...extra,
});

let runs: RenewalRun[];

beforeEach(() => {
  fakes.api = createFakeApi();
  fakes.events = createFakeEvents();
  runs = [];
  fakes.api.on('GET', '/renewals/candidates', CANDIDATES);
  fakes.api.on('GET', '/renewal-runs', () => ({ data: structuredClone(runs) }));
});
afterEach(() => vi.restoreAllMocks());

const open = async () => {
  const user = userEvent.setup();
  await renderApp(fakes.api!, '/manage/renewals', admin);
  await screen.findByRole('table', { name: 'Certificates to renew for 2027–2028' });
  return user;
};
const runCard = (name = 'Renewal for 2027–2028') => screen.getByRole('article', { name: new RegExp(`^${name}`) });

describe('the candidates', () => {
  it('lists them by holder with the verdict and why, the counts, and a link to each request', async () => {
    await open();
    const table = screen.getByRole('table', { name: 'Certificates to renew for 2027–2028' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows[0]).toMatch(/^Acme Arena · 2 certificates$/);
    expect(rows[1]).toMatch(/500101Pat Requester, Clinic.*Will renewStanding contract/);
    expect(rows[2]).toMatch(/500102Sam Other, Lab.*Does not fitNo policy year on record covers 07\/01\/2028 – 12\/31\/2028\./);
    expect(rows[3]).toMatch(/^Blue Hall · 2 certificates$/);
    expect(rows[5]).toMatch(/500104.*Not renewingLease expires 05\/31\/2027/);
    // Each holder heads its group as a header the reader hears, not only as text.
    expect(within(table).getByRole('columnheader', { name: 'Acme Arena · 2 certificates' })).toBeVisible();
    expect(within(table).getByRole('columnheader', { name: 'Blue Hall · 2 certificates' })).toBeVisible();
    expect(within(table).getByRole('link', { name: '500102' })).toHaveAttribute('href', '/requests/certificate/102');
    // Only what will renew can be ticked, and it starts ticked.
    expect(within(table).getByRole('checkbox', { name: 'Renew request 500101' })).toBeChecked();
    expect(within(table).queryByRole('checkbox', { name: 'Renew request 500102' })).toBeNull();
    expect(screen.getByLabelText('Certificates by verdict').textContent).toBe('Will renew2Not renewing1Does not fit1Already renewed0');
    expect(screen.getByLabelText('Renew for policy year')).toHaveValue('8');
    expect(screen.getByLabelText('From')).toHaveValue('2027-05-31');
    expect(screen.getByRole('button', { name: 'Start renewal run' })).toBeEnabled();
  });

  it('asks again for what the administrator picks: another year (its own window), a subtype', async () => {
    const user = await open();
    await user.selectOptions(screen.getByLabelText('Renew for policy year'), '2026–2027');
    await waitFor(() => expect(fakes.api!.callsTo('GET', '/renewals/candidates').at(-1)!.query).toMatchObject({ policyYearId: 7, from: undefined, to: undefined }));
    await user.selectOptions(screen.getByLabelText('Subtype'), 'Event');
    await waitFor(() => expect(fakes.api!.callsTo('GET', '/renewals/candidates').at(-1)!.query).toMatchObject({ certificateType: 'Event' }));
  });

  it('shows the refusal with the way to Policies, and no run can start', async () => {
    fakes.api!.on('GET', '/renewals/candidates', { ...CANDIDATES, refusal: 'No policy year after the current one is on record. Add the new policy year under Manage > Policies before starting a renewal run.' });
    await open();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('No policy year after the current one is on record.');
    expect(within(alert).getByRole('link', { name: 'Go to Manage > Policies' })).toHaveAttribute('href', '/manage/policies');
    expect(screen.getByRole('button', { name: 'Start renewal run' })).toBeDisabled();
  });

  it('saves a renewal mark and reads the candidates again', async () => {
    fakes.api!.on('PUT', '/requests/104/renewal-preference', { preference: 'auto' });
    const user = await open();
    const before = fakes.api!.callsTo('GET', '/renewals/candidates').length;
    await user.selectOptions(screen.getByLabelText('Renewal mark of request 500104'), 'Renews automatically');
    await waitFor(() => expect(fakes.api!.callsTo('GET', '/renewals/candidates').length).toBe(before + 1));
    expect(fakes.api!.callsTo('PUT', '/requests/104/renewal-preference')[0].body).toEqual({ preference: 'auto' });
  });
});

describe('starting a run', () => {
  it('posts the ticked certificates, asks first with an answer date, and shows the new run focused', async () => {
    fakes.api!.on('POST', '/renewal-runs', (call) => {
      runs.unshift(run({ mode: 'ask', state: 'asking', answerBy: (call.body as { answerBy: string }).answerBy, progress: { ...PROGRESS, done: 0, asked: 1, percent: 0 } }));
      return runs[0];
    });
    const user = await open();
    await user.click(screen.getByRole('checkbox', { name: 'Renew request 500103' }));
    expect(screen.getByText('1 certificate selected')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Ask the requesters first' }));
    await user.click(screen.getByRole('button', { name: 'Start renewal run' }));
    expect(screen.getByText('Pick the date by which requesters must answer.')).toBeInTheDocument();
    expect(fakes.api!.callsTo('POST', '/renewal-runs')).toHaveLength(0);

    await user.type(screen.getByLabelText('Answer by'), '2099-07-15');
    await user.click(screen.getByRole('button', { name: 'Start renewal run' }));
    await waitFor(() => expect(runCard()).toContainElement(document.activeElement as HTMLElement));
    expect(fakes.api!.callsTo('POST', '/renewal-runs')[0].body).toEqual({
      policyYearId: 8, mode: 'ask', from: '2027-05-31', to: '2027-06-30', answerBy: '2099-07-15', requestIds: [101],
    });
    expect(within(runCard()).getByText(/Ask the requesters first \(answer by 07\/15\/2099\)/)).toBeInTheDocument();
  });

  it("shows the server's refusal beside the answer date", async () => {
    fakes.api!.on('POST', '/renewal-runs', refuse(400, { message: 'Invalid', errors: { answerBy: 'The answer date must be after today.' } }));
    const user = await open();
    await user.click(screen.getByRole('radio', { name: 'Ask the requesters first' }));
    await user.type(screen.getByLabelText('Answer by'), '2099-07-15');
    await user.click(screen.getByRole('button', { name: 'Start renewal run' }));
    expect(await screen.findByText('The answer date must be after today.')).toBeInTheDocument();
    expect(screen.getByLabelText('Answer by')).toHaveAttribute('aria-invalid', 'true');
    expect(fakes.api!.callsTo('POST', '/renewal-runs')[0].body).toMatchObject({ requestIds: [101, 103] });
  });
});

describe('a run', () => {
  it('shows its progress, moves live while it runs, and stops asking once it has ended', async () => {
    runs.push(run());
    await open();
    const bar = within(runCard()).getByRole('progressbar', { name: 'Progress of the renewal for 2027–2028' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(runCard()).toHaveTextContent('50% of 10 · 4 done · 1 waiting · 1 failed · 4 remaining · 0 not renewed');
    expect(runCard()).not.toHaveTextContent('awaiting an answer');

    runs[0] = run({ state: 'finished', finishedAt: '2027-06-01T18:00:00.000Z', progress: { ...PROGRESS, done: 9, waiting: 0, remaining: 0, percent: 100 } });
    await waitFor(() => expect(within(runCard()).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100'), { timeout: 3000 });
    expect(within(runCard()).getByText('Finished')).toBeInTheDocument();
    const asked = fakes.api!.callsTo('GET', '/renewal-runs').length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fakes.api!.callsTo('GET', '/renewal-runs')).toHaveLength(asked);
  });

  it('pauses, resumes and cancels (after asking) through their endpoints', async () => {
    runs.push(run());
    fakes.api!.on('POST', '/renewal-runs/5/pause', () => { runs[0] = run({ state: 'paused' }); return runs[0]; });
    fakes.api!.on('POST', '/renewal-runs/5/resume', () => { runs[0] = run(); return runs[0]; });
    fakes.api!.on('POST', '/renewal-runs/5/cancel', () => { runs[0] = run({ state: 'cancelled' }); return runs[0]; });
    const user = await open();
    await user.click(within(runCard()).getByRole('button', { name: 'Pause' }));
    await user.click(await within(runCard()).findByRole('button', { name: 'Resume' }));
    await user.click(await within(runCard()).findByRole('button', { name: 'Cancel run' }));
    expect(fakes.api!.callsTo('POST', '/renewal-runs/5/cancel')).toHaveLength(0);
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Cancel the renewal for 2027–2028?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel run' }));
    expect(await within(runCard()).findByText('Cancelled')).toBeInTheDocument();
    expect(fakes.api!.calls.filter((c) => c.method === 'POST').map((c) => c.path))
      .toEqual(['/authentication', '/renewal-runs/5/pause', '/renewal-runs/5/resume', '/renewal-runs/5/cancel']);
    expect(within(runCard()).queryByRole('button', { name: /Pause|Resume|Cancel run/ })).toBeNull();
  });

  it('in ask mode counts what awaits an answer and stops waiting for answers', async () => {
    runs.push(run({ mode: 'ask', state: 'asking', answerBy: '2027-06-20', progress: { ...PROGRESS, asked: 3 } }));
    fakes.api!.on('POST', '/renewal-runs/5/close-asking', () => { runs[0] = run({ mode: 'ask', answerBy: '2027-06-20' }); return runs[0]; });
    const user = await open();
    expect(runCard()).toHaveTextContent('0 not renewed · 3 awaiting an answer');
    expect(within(runCard()).queryByRole('button', { name: 'Pause' })).toBeNull();
    await user.click(within(runCard()).getByRole('button', { name: 'Stop waiting for answers' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Stop waiting' }));
    expect(await within(runCard()).findByText('Running')).toBeInTheDocument();
    expect(fakes.api!.callsTo('POST', '/renewal-runs/5/close-asking')).toHaveLength(1);
  });

  it('lists its certificates by state, a page at a time, and downloads its result', async () => {
    runs.push(run({ state: 'finished', progress: { ...PROGRESS, percent: 100 } }));
    const item = (id: number, state: string) => ({
      id, requestId: id, requestNumber: 600000 + id, holder: 'Acme Arena', requester: 'Pat Requester', reason: 'Standing contract', state,
      delivery: state === 'renewed' ? 'sent' : null, answer: null, outcome: state === 'failed' ? 'The letter could not be printed' : null, updatedAt: '2027-06-01T18:00:00.000Z',
    });
    fakes.api!.on('GET', '/renewal-runs/5/items', (call) => ({
      total: 30, limit: 25, skip: call.query!.$skip, data: call.query!.state === 'failed' ? [item(2, 'failed')] : [item(1, 'renewed')],
    }));
    const blob = vi.fn(async () => new Blob(['xlsx']));
    fakes.api!.api.blob = blob;
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:result');
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { downloads.push(this.download); });
    const user = await open();

    await user.click(within(runCard()).getByRole('button', { name: 'Show certificates' }));
    const items = await within(runCard()).findByRole('table', { name: 'Certificates of this run (30)' });
    expect(within(items).getByText('Renewed')).toBeInTheDocument();
    expect(fakes.api!.callsTo('GET', '/renewal-runs/5/items')[0].query).toMatchObject({ $limit: 25, $skip: 0 });
    await user.selectOptions(within(runCard()).getByLabelText('Show'), 'Failed');
    expect(await within(runCard()).findByText('The letter could not be printed')).toBeInTheDocument();
    await user.click(within(runCard()).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(fakes.api!.callsTo('GET', '/renewal-runs/5/items').at(-1)!.query).toMatchObject({ state: 'failed', $skip: 25 }));

    await user.click(within(runCard()).getByRole('button', { name: 'Download result (xlsx)' }));
    await waitFor(() => expect(downloads).toEqual(['renewal-run-5-2027–2028.xlsx']));
    expect(blob).toHaveBeenCalledWith('/renewal-runs/5/result.xlsx');
  });
});
