/**
 * The public verification page in jsdom, no server: what a holder reads for each answer (Valid with the paper's
 * facts, Superseded with a link to the newer certificate of the same holder or only its date, Revoked with date and
 * reason, not issued for a code or a file), the status sentence in the live region, and a refusal of the per-address limit.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, refuse, type FakeApi } from './support/fake-api';
import { renderApp, requester } from './support/render-app';

const fake = vi.hoisted(() => ({ current: null as null | FakeApi }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fake.current!.api as Record<string, unknown>)[method] }),
}));

const NONE = { status: 'NotIssued', code: null, kind: null, kindLabel: null, issuedAt: null, certificate: null, claimHistoryLetter: null, superseded: null, revoked: null };
const CERTIFICATE = {
  subtypeLabel: 'Event', certificateHolder: 'Crystal Ballroom LLC', insuredActivity: 'Event: Spring Gala; Event dates: 04/02/2027',
  coveragePeriod: { from: '2027-04-02', to: '2027-04-03' }, coverageLine: 'General and Professional Liability',
  policies: [{ policyNumber: 'SIP-2026-27', effective: '2026-07-01', expiration: '2027-06-30', eachClaim: '1000000.00', annualAggregate: '3000000.00' }],
  dateIssued: '2026-11-20', timeZone: 'America/Los_Angeles',
};
const answer = (code: string, extra: object) => ({
  ...NONE, status: 'Valid', code, kind: 'certificate', kindLabel: 'Certificate of Insurance', issuedAt: '2026-11-20T18:00:00.000Z', certificate: CERTIFICATE, ...extra,
});

const liveRegion = () => document.querySelector('[aria-live="polite"]')!;

beforeEach(() => {
  fake.current = createFakeApi();
  fake.current.on('GET', /^\/verify\//, NONE); // routes added later win
  fake.current.on('GET', '/verify/AAAA-BBBB-CCCCC', answer('AAAA-BBBB-CCCCC', { status: 'Superseded', superseded: { on: '2026-11-25T17:00:00.000Z', newCode: 'DDDD-EEEE-FFFFF' } }));
  fake.current.on('GET', '/verify/DDDD-EEEE-FFFFF', answer('DDDD-EEEE-FFFFF', {}));
  fake.current.on('GET', '/verify/GGGG-HHHH-JJJJJ', answer('GGGG-HHHH-JJJJJ', { status: 'Revoked', revoked: { on: '2026-11-26T16:30:00.000Z', reasonCategory: 'Coverage cancelled' } }));
});

describe('the verification page', () => {
  it('a superseded certificate links the newer one, which reads Valid with what its paper states', async () => {
    const user = userEvent.setup();
    await renderApp(fake.current!, '/verify/AAAA-BBBB-CCCCC', requester);
    expect(await screen.findByRole('heading', { name: 'Status: Superseded' })).toBeTruthy();
    expect(liveRegion().textContent).toBe('Superseded: this Certificate of Insurance was replaced by a newer one on 11/25/2026.');
    await user.click(screen.getByRole('link', { name: 'check the status of DDDD-EEEE-FFFFF' }));
    expect(await screen.findByRole('heading', { name: 'Status: Valid' })).toBeTruthy();
    expect(liveRegion().textContent).toBe('Valid: this Certificate of Insurance was issued by us and is in force.');
    const facts = document.querySelector('.verify-facts')!.textContent!;
    for (const text of ['Crystal Ballroom LLC', 'Event: Spring Gala', '04/02/2027 – 04/03/2027', '11/20/2026', 'DDDD-EEEE-FFFFF']) expect(facts).toContain(text);
    const policies = screen.getByRole('table', { name: 'Policies and limits' });
    expect(within(policies).getByText('SIP-2026-27')).toBeTruthy();
    expect(within(policies).getByText('$1,000,000.00')).toBeTruthy();
  });

  it('a certificate superseded by one for another holder says when, without a link', async () => {
    fake.current!.on('GET', '/verify/KKKK-MMMM-NNNNN', answer('KKKK-MMMM-NNNNN', { status: 'Superseded', superseded: { on: '2026-11-26T06:30:00.000Z', newCode: null } }));
    await renderApp(fake.current!, '/verify/KKKK-MMMM-NNNNN', requester);
    expect(await screen.findByRole('heading', { name: 'Status: Superseded' })).toBeTruthy();
    // 06:30 UTC on the 26th is still the 25th in the office's time zone (America/Los_Angeles).
    expect(screen.getByText('Superseded on 11/25/2026.')).toBeTruthy();
    expect(liveRegion().textContent).toBe('Superseded: this Certificate of Insurance was superseded on 11/25/2026.');
    expect(screen.queryByRole('link', { name: /check the status/ })).toBeNull();
    expect(document.body.textContent).not.toMatch(/newer one/);
  });

  it('a revoked certificate says when and why', async () => {
    await renderApp(fake.current!, '/verify/GGGG-HHHH-JJJJJ', requester);
    expect(await screen.findByRole('heading', { name: 'Status: Revoked' })).toBeTruthy();
    expect(screen.getByText('Revoked on 11/26/2026. Reason: Coverage cancelled.')).toBeTruthy();
  });

  it('a typed code nobody issued, and a file that is not ours, say "not issued by us"', async () => {
    const user = userEvent.setup();
    await renderApp(fake.current!, '/verify', requester, ['/verify/x']);
    await user.type(screen.getByLabelText('Verification code'), 'zzzz-zzzz-zzzzz{Enter}');
    expect(await screen.findByRole('heading', { name: 'Status: Not issued by us' })).toBeTruthy();
    expect(liveRegion().textContent).toBe('Not issued by us: we have no certificate or letter with the code zzzz-zzzz-zzzzz.');

    fake.current!.on('POST', '/verify/pdf', NONE);
    await user.upload(screen.getByLabelText('PDF file'), new File(['%PDF-1.4 changed'], 'certificate.pdf', { type: 'application/pdf' }));
    await vi.waitFor(() => expect(liveRegion().textContent).toBe('Not issued by us: this file is not byte for byte a certificate or letter we issued.'));
    expect(fake.current!.callsTo('POST', '/verify/pdf')[0].body).toBeInstanceOf(FormData);
  });

  it('an empty code asks for one; a refusal of the limit is shown and announced', async () => {
    const user = userEvent.setup();
    await renderApp(fake.current!, '/verify', requester, ['/verify/x']);
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getByText('Please enter the verification code printed on the certificate or letter.')).toBeTruthy();
    fake.current!.on('GET', '/verify/AAAA-BBBB-CCCCC', refuse(429, { message: 'Too many checks from your network. Please wait a minute and try again.' }));
    await user.type(screen.getByLabelText('Verification code'), 'AAAA-BBBB-CCCCC{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Too many checks from your network. Please wait a minute and try again.');
    expect(liveRegion().textContent).toBe('Too many checks from your network. Please wait a minute and try again.');
  });
});
