/** The "Before the first certificate" list (domain/first-certificate-checklist.ts): when the policy-year item is done. */
import { describe, expect, it } from 'vitest';
import { firstCertificateChecklist, type ChecklistFacts } from '../../domain';

const year = (start: number) => ({
  startDate: new Date(Date.UTC(start, 6, 1, 11)), endDate: new Date(Date.UTC(start + 1, 5, 30, 11)), policyNumber: `PL-${start}`,
});
const facts = (overrides: Partial<ChecklistFacts>): ChecklistFacts => ({
  policyYears: [], today: '2026-11-27', timeZone: 'America/Los_Angeles',
  phone: { value: '503-494-7700', sample: false },
  mailbox: { value: 'riskmanagement@coi-portal.local', sample: true },
  portalAddress: { value: 'https://coi.university.example', sample: false },
  ...overrides,
});

describe('before the first certificate', () => {
  it('waits for a policy year covering the office\'s today, first and last days included', () => {
    expect(firstCertificateChecklist(facts({})).complete).toBe(false);
    expect(firstCertificateChecklist(facts({ policyYears: [year(2026)], today: '2026-07-01' })).complete).toBe(true);
    expect(firstCertificateChecklist(facts({ policyYears: [year(2025)], today: '2026-06-30' })).complete).toBe(true);
    const over = firstCertificateChecklist(facts({ policyYears: [year(2025)], today: '2026-07-01' }));
    expect(over.complete).toBe(false);
    expect(over.items[0]).toEqual({
      id: 'policyYear', label: 'Policy year in force today entered under Manage > Policies', done: false,
      detail: 'None of the 1 policy years on record covers today (07/01/2026): every certificate approval is refused until it is entered.',
    });
  });

  it('names the year in force and shows each office fact as requesters see it, a development sample said to be one', () => {
    const list = firstCertificateChecklist(facts({ policyYears: [year(2025), year(2026)] }));
    expect(list.items.map((i) => [i.id, i.done, i.detail])).toEqual([
      ['policyYear', true, 'PL-2026, 07/01/2026 – 06/30/2027'],
      ['phone', true, '503-494-7700'],
      ['mailbox', true, 'riskmanagement@coi-portal.local (development sample)'],
      ['portalAddress', true, 'https://coi.university.example'],
    ]);
  });
});
