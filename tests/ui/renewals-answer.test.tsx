/**
 * The requester's answer page (/renewal-answer/:token, public) in jsdom, the API faked: the question with the
 * certificate's facts, the email's choice focused but not sent until pressed (mail scanners open links), the thanks
 * once answered, a closed question, an unknown link.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RenewalQuestion } from '../../ui/src/features/renewals/renewal-answer-api';
import { createFakeApi, refuse, type FakeApi } from './support/fake-api';
import { renderApp, requester } from './support/render-app';

const fake = vi.hoisted(() => ({ current: null as null | FakeApi }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fake.current!.api as Record<string, unknown>)[method] }),
}));

const TOKEN = 'Q1w2E3r4T5y6U7i8O9p0_-abc';
const QUESTION: RenewalQuestion = {
  requestNumber: 500101, holder: 'Acme Arena', subtypeLabel: 'Contracts/Lease', policyYear: '2027–2028', answerBy: '2027-06-20', answer: null, open: true,
};

beforeEach(() => {
  fake.current = createFakeApi();
  fake.current.on('GET', `/renewal-answers/${TOKEN}`, QUESTION);
  fake.current.on('POST', `/renewal-answers/${TOKEN}`, (call) => ({ ...QUESTION, answer: (call.body as { answer: string }).answer }));
});

describe('the renewal answer page', () => {
  it("focuses the email's answer without sending it, then posts it when pressed and thanks", async () => {
    const user = userEvent.setup();
    await renderApp(fake.current!, `/renewal-answer/${TOKEN}?answer=no`, requester);
    expect(await screen.findByRole('heading', { name: 'Do you still need this certificate?' })).toBeInTheDocument();
    for (const fact of ['500101', 'Contracts/Lease', 'Acme Arena', '2027–2028']) expect(screen.getByText(fact)).toBeInTheDocument();
    expect(screen.getByText('Please answer by 06/20/2027.')).toBeInTheDocument();
    const no = screen.getByRole('button', { name: 'No, I no longer need it' });
    expect(no).toHaveFocus();
    expect(no).toHaveClass('button', { exact: true });
    expect(screen.getByRole('button', { name: 'Yes, renew it' })).toHaveClass('button--secondary');
    expect(fake.current!.callsTo('POST', `/renewal-answers/${TOKEN}`)).toHaveLength(0);

    await user.click(no);
    expect(await screen.findByText('Thank you — your answer (No) is recorded.')).toBeInTheDocument();
    expect(fake.current!.callsTo('POST', `/renewal-answers/${TOKEN}`).map((c) => c.body)).toEqual([{ answer: 'no' }]);
  });

  it('without a choice in the link, nothing is focused and Yes posts yes', async () => {
    const user = userEvent.setup();
    await renderApp(fake.current!, `/renewal-answer/${TOKEN}`, requester);
    const yes = await screen.findByRole('button', { name: 'Yes, renew it' });
    expect(yes).not.toHaveFocus();
    await user.click(yes);
    expect(await screen.findByText('Thank you — your answer (Yes) is recorded.')).toBeInTheDocument();
    expect(fake.current!.callsTo('POST', `/renewal-answers/${TOKEN}`)[0].body).toEqual({ answer: 'yes' });
  });

  it('a closed question says so with the answer on record, and offers no buttons', async () => {
    fake.current!.on('GET', `/renewal-answers/${TOKEN}`, { ...QUESTION, open: false, answer: 'yes' });
    await renderApp(fake.current!, `/renewal-answer/${TOKEN}?answer=no`, requester);
    expect(await screen.findByText(/This question is closed: the office no longer waits for an answer\. Your answer: Yes\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /renew it|no longer need it/ })).toBeNull();
  });

  it("an unknown link shows the API's message", async () => {
    const message = 'This link is not valid. Please use the link in the most recent email, or contact the Risk Management Office.';
    fake.current!.on('GET', `/renewal-answers/${TOKEN}`, refuse(404, { message }));
    await renderApp(fake.current!, `/renewal-answer/${TOKEN}`, requester);
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.queryByRole('button', { name: 'Yes, renew it' })).toBeNull();
  });
});
