/**
 * Send again, and how Emails Not Sent and the audit trail stay current without timers (jsdom, no server): the write
 * reads what it changed once, when it is answered, and no clock reads it again later (the test's clock is a fake one
 * moved on by hand); an email that fails later reaches the open list through its live event.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMAIL_FAILED_ACTIVITY, STATUS } from '../../domain';
import type { EmailProblem } from '../../ui/src/features/admin/components/email-problems-page';
import { UI_TEXT } from '../../ui/src/lib/ui-text';
import type { RequestRecord } from '../../ui/src/types/api';
import { row, serveRequests } from './support/canned-requests';
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

/** Longer than any refresh timer a page ever had (2 s) and than the live events' debounce (250 ms). */
const LATER_MS = 10_000;

let problems: EmailProblem[];

const problem = (effectId: number, requestId: number, templateTitle: string): EmailProblem => ({
  effectId, requestId, requestNumber: 50_000 + requestId, requestType: 'credentialing', state: 'failed', stateLabel: 'Failed',
  subject: templateTitle, templateTitle, recipients: 'pat.requester@clinic.example', reason: '550 mailbox unavailable',
  since: '2026-11-26T10:00:00.000Z', retryOf: 9_000 + effectId,
});

beforeEach(() => {
  // Fake timers that also move on with real time (Testing Library's waits keep working); `later()` jumps ahead.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fakes.api = createFakeApi();
  fakes.events = createFakeEvents();
  serveRequests(fakes.api, []);
  problems = [problem(1, 101, 'Credentialing Request Submitted'), problem(2, 102, 'Credentialing Request Approved'), problem(3, 103, 'Credentialing Request Denied')];
  fakes.api.on('GET', /^\/email-problems/, () => ({ total: problems.length, limit: 50, skip: 0, data: structuredClone(problems) }));
  // As the server: once the workflow has queued the email again (202), its failure leaves the list.
  fakes.api.on('POST', '/send-email', ({ body }) => {
    const { retryOf, templateTitle } = body as { retryOf: number; templateTitle: string };
    problems = problems.filter((p) => p.retryOf !== retryOf);
    return { queued: true, templateTitle };
  });
});
afterEach(() => { vi.useRealTimers(); });

const listReads = () => fakes.api!.callsTo('GET', /^\/email-problems/).length;
const later = () => act(() => vi.advanceTimersByTimeAsync(LATER_MS));
const rowOf = (templateTitle: string) => screen.queryByRole('row', { name: new RegExp(templateTitle) });

describe('Emails Not Sent', () => {
  it('Send again on the selected emails reads the list once when they are answered, and never again by a timer', async () => {
    const user = userEvent.setup({ delay: null, advanceTimers: vi.advanceTimersByTime });
    await renderApp(fakes.api!, '/manage/email-problems', admin);
    await screen.findByRole('heading', { name: 'Not sent (3)' });
    await user.click(screen.getByRole('checkbox', { name: /Credentialing Request Submitted/ }));
    await user.click(screen.getByRole('checkbox', { name: /Credentialing Request Approved/ }));
    const before = listReads();

    await user.click(screen.getByRole('button', { name: `${UI_TEXT.sendAgain} (2 selected)` }));
    await screen.findByText('Queued 2 emails to be sent again.');

    expect(fakes.api!.callsTo('POST', '/send-email').map((c) => c.body)).toEqual([
      { requestId: 101, templateTitle: 'Credentialing Request Submitted', retryOf: 9001 },
      { requestId: 102, templateTitle: 'Credentialing Request Approved', retryOf: 9002 },
    ]);
    // The message sits beside the list as the server now has it.
    expect(screen.getByRole('heading', { name: 'Not sent (1)' })).toBeInTheDocument();
    expect(rowOf('Credentialing Request Submitted')).toBeNull();
    expect(listReads()).toBe(before + 1);
    await later();
    expect(listReads()).toBe(before + 1);
  });

  it('an email that fails while the list is open shows through its live event; other events read nothing', async () => {
    await renderApp(fakes.api!, '/manage/email-problems', admin);
    await screen.findByRole('heading', { name: 'Not sent (3)' });
    const before = listReads();

    fakes.events!.emit({ kind: 'message', requestId: 101 });
    await later();
    expect(listReads()).toBe(before);

    problems = [problem(4, 104, 'Certificate Request Approved'), ...problems];
    fakes.events!.emit({ kind: 'activity', requestId: 104 });
    await screen.findByRole('heading', { name: 'Not sent (4)' });
    expect(rowOf('Certificate Request Approved')).not.toBeNull();
    expect(listReads()).toBe(before + 1);
  });
});

describe('Send again on the audit trail', () => {
  let request: RequestRecord;
  let trail: unknown[];

  beforeEach(() => {
    request = { ...row({ status: STATUS.submitted }), documents: [], discussions: [] };
    fakes.api!.on('GET', `/requests/${request.id}`, () => structuredClone(request));
    fakes.api!.on('GET', `/requests/${request.id}/certificates`, { items: [] });
    trail = [{
      id: 9001, requestId: request.id, date: '2026-11-26T10:00:00.000Z', activityType: EMAIL_FAILED_ACTIVITY,
      activityText: '"Credentialing Request Submitted" email failed: 550 mailbox unavailable', performedBy: 'COI Automated Email System',
      recipients: ['pat.requester@clinic.example'], channel: 'email', effectId: 1,
    }];
    fakes.api!.on('GET', '/request-activity', () => ({ total: trail.length, limit: 50, skip: 0, data: structuredClone(trail) }));
  });

  it('reads the trail once when the email is queued, and the outcome arrives as a live event, not by a timer', async () => {
    const user = userEvent.setup({ delay: null, advanceTimers: vi.advanceTimersByTime });
    await renderApp(fakes.api!, `/requests/credentialing/${request.id}`, admin);
    await user.click(await screen.findByRole('tab', { name: 'Request Audit Details' }));
    const failed = await screen.findByRole('row', { name: /email failed/ });
    const trailReads = () => fakes.api!.callsTo('GET', '/request-activity').length;
    const before = trailReads();

    await user.click(within(failed).getByRole('button', { name: new RegExp(`^${UI_TEXT.sendAgain}`) }));
    await within(failed).findByText(UI_TEXT.emailQueuedAgain);
    expect(trailReads()).toBe(before + 1);
    await later();
    expect(trailReads()).toBe(before + 1);

    trail = [{ ...(trail[0] as object), id: 9002, activityType: 'Email Sent', activityText: '"Credentialing Request Submitted" email sent' }, ...trail];
    fakes.events!.emit({ kind: 'activity', requestId: request.id });
    await screen.findByRole('row', { name: /email sent/ });
    await waitFor(() => expect(trailReads()).toBe(before + 2));
  });
});
