/**
 * The rule editor's conditions and its simulation (jsdom, the API faked): what the editor sends for a rule written
 * with react-querybuilder (choices, lists of choices as arrays), and how a simulation's answer (contract
 * SimulationResult) is shown: the reading, the table by month and type, the requests where the office decided
 * otherwise, each linked to its page. Until the simulator's route exists, the editor says it is not available.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Simulation } from '../../ui/src/features/instant/instant-api';
import { createFakeApi, type FakeApi } from './support/fake-api';
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
// jsdom lays nothing out, and the chart library measures its box: the chart is the browser's (e2e); the numbers are here.
vi.mock('../../ui/src/features/instant/simulation-chart', () => ({ SimulationChart: () => <p>chart</p> }));

const RESULT: Simulation = {
  from: '2025-11-28T08:00:00.000Z', to: '2026-11-28T08:00:00.000Z', considered: 40, wouldIssue: 10,
  byKindMonth: [{ kind: 'Event', month: '2026-03', count: 4 }, { kind: 'Event', month: '2026-01', count: 6 }],
  medianSavedHours: 51.25, differedTotal: 2, tookMs: 180,
  differed: [
    { requestId: 71, requestNumber: 500071, certificateType: 'Event', status: 'Denied', differedBy: 'denied', detail: 'No coverage for fireworks' },
    { requestId: 72, requestNumber: null, certificateType: 'Event', status: 'Approved', differedBy: 'changed', detail: 'holder' },
  ],
};

beforeEach(() => {
  fakes.api = createFakeApi();
  fakes.events = createFakeEvents();
  fakes.api.on('GET', '/instant-rules', { settings: { enabled: false, updatedAt: '1970-01-01T00:00:00.000Z', updatedBy: null }, data: [] });
});

async function writeRule() {
  const user = userEvent.setup();
  await renderApp(fakes.api!, '/manage/instant-certificates', admin);
  await user.click(await screen.findByRole('button', { name: 'New Rule' }));
  const form = screen.getByRole('form', { name: 'New rule' });
  await user.click(within(form).getByRole('checkbox', { name: 'Event' }));
  await user.click(within(form).getByRole('button', { name: 'Add condition' }));
  await user.selectOptions(within(form).getByLabelText('Field of condition 1'), 'eventType');
  await user.selectOptions(within(form).getByLabelText('Comparison of condition 1'), 'in');
  await user.selectOptions(within(form).getByLabelText('Value of condition 1'), ['Camp', 'Social Event']);
  return user;
}

describe('the rule editor', () => {
  it('simulates the rule as written: the reading, the months by type, the requests decided otherwise with their links', async () => {
    fakes.api!.on('POST', '/instant-rules/simulate', RESULT);
    const user = await writeRule();
    await user.click(screen.getByRole('button', { name: 'Simulate over the last 12 months' }));
    expect(await screen.findByText(/Would have issued 10 of 40 requests \(25%\)/)).toBeInTheDocument();
    expect(screen.getByText(/a median of 51\.3 hours saved on each/)).toBeInTheDocument();
    const [call] = fakes.api!.callsTo('POST', '/instant-rules/simulate');
    expect(call.body).toMatchObject({ kinds: ['Event'], dailyCap: 50, conditions: { combinator: 'and', rules: [{ field: 'eventType', operator: 'in', value: ['Camp', 'Social Event'] }] } });

    const table = screen.getByRole('table', { name: 'Would issue by month' });
    const rows = within(table).getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual(['MonthEventTotal', 'Jan 202666', 'Mar 202644']);
    expect(screen.getByRole('heading', { name: 'Where the office decided otherwise (2)' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request 500071' })).toHaveAttribute('href', '/requests/certificate/71');
    expect(screen.getByRole('link', { name: 'Request #72' })).toHaveAttribute('href', '/requests/certificate/72');
    expect(screen.getByText(/Denied: No coverage for fireworks/)).toBeInTheDocument();
  });

  it('says the simulator is not available while its route answers 404', async () => {
    const user = await writeRule();
    await user.click(screen.getByRole('button', { name: 'Simulate over the last 12 months' }));
    expect(await screen.findByText('The simulator is not available.')).toBeInTheDocument();
  });

  it("shows the server's messages beside the fields they are about", async () => {
    const { refuse } = await import('./support/fake-api');
    fakes.api!.on('POST', '/instant-rules', refuse(400, { message: 'Please enter a name for the rule', errors: { name: 'Please enter a name for the rule', conditions: '"Camp" is not allowed' } }));
    const user = await writeRule();
    await user.click(screen.getByRole('button', { name: 'Save Rule' }));
    expect(await screen.findByText('Please enter a name for the rule')).toBeInTheDocument();
    expect(screen.getByText('"Camp" is not allowed')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  });
});
