/**
 * The desk's pure rules: FAQ order (domain/faqs.ts), money (money.ts), policy dates (policy-year-form.ts), claim rows
 * (cs-stars-claims.ts), search (admin-search.ts), type labels (request-lists.ts), export name (export-file-name.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  checkClaimRow, claimFieldOf, DESK_MESSAGES, exportFileName, faqErrors, faqOrderFor, MESSAGES, MONEY_MESSAGE, normalizeVehicleId,
  parseMoney, requestTypeLabelOf, searchErrors, validatePolicy,
} from '../../domain';

describe('FAQ order', () => {
  it('defaults to count+1 when adding, rounds up, caps at count (+1 when adding), refuses below 1', () => {
    expect(faqOrderFor(undefined, 4, true)).toBe(5);
    expect(faqOrderFor(2.1, 4, true)).toBe(3);
    expect(faqOrderFor(99, 4, true)).toBe(5);
    expect(faqOrderFor(99, 4, false)).toBe(4);
    expect(faqOrderFor(0, 4, true)).toBeNull();
    expect(faqOrderFor('x', 4, true)).toBeNull();
    expect(faqErrors({ type: 'Admin', question: 'q', answer: 'a' }, true)).toEqual({});
    expect(faqErrors({ question: '', answer: 'a'.repeat(1537), order: '' }, false)).toEqual({
      question: MESSAGES.required, answer: 'Answer cannot be longer than 1536 characters', order: MESSAGES.required,
    });
  });
});

describe('policies and money', () => {
  it('takes USD with 2 decimals and mm/dd/yyyy dates', () => {
    expect(parseMoney('$2,565,400')).toBe('2565400.00');
    expect(parseMoney('12.5')).toBe('12.50');
    expect(parseMoney('12.555')).toBeNull();
    expect(validatePolicy({ startDate: '7/1/2024', endDate: '06/30/2025', policyNumber: ' P ', limitClaim: '1', annualAggregate: '2' }, true).values)
      .toEqual({ startDay: '2024-07-01', endDay: '2025-06-30', policyNumber: 'P', limitClaim: '1.00', annualAggregate: '2.00' });
    expect(validatePolicy({ startDate: '2024-07-01', endDate: '02/30/2025', policyNumber: 'P', limitClaim: 'x', annualAggregate: '2' }, true).errors)
      .toEqual({ startDate: DESK_MESSAGES.policyDateFormat, endDate: DESK_MESSAGES.policyDateFormat, limitClaim: MONEY_MESSAGE });
  });
});

describe('CS-STARS rows', () => {
  const good = {
    exportDate: '06/30/2025', physicianLastName: 'Doe', physicianFirstName: 'Jane', physicianMiddleInitial: 'Q.', involvement: 'Named in Claim',
    claimNumber: 'C-1', type: 'Lawsuit', status: 'Final', outcome: 'Settled', claimDate: '2020-01-02', reportDate: '01/03/2020', indemnityPaid: '$1,000', description: '',
  };
  it('accepts a row of spec 1 §3 and cleans it', () => {
    expect(checkClaimRow(good).row).toMatchObject({ physicianMiddleInitial: 'Q', claimDate: '2020-01-02', reportDate: '2020-01-03', indemnityPaid: '1000.00' });
    expect(claimFieldOf('Physician Last Name')).toBe('physicianLastName');
    expect(claimFieldOf('physician_last_name')).toBe('physicianLastName');
  });
  it('names every reason a row is refused', () => {
    const { reasons } = checkClaimRow({ ...good, involvement: 'Witness', type: 'Suit', status: 'Closed', outcome: 'Won', claimDate: '13/01/2020', indemnityPaid: '-5', claimNumber: '' });
    expect(reasons).toEqual([
      'claimNumber is required',
      `involvement "Witness" is not one of 'Defendant - Staff', 'Named in Claim'`,
      `type "Suit" is not one of 'Claim', 'Lawsuit'`,
      `status "Closed" is not one of 'Open', 'Final', 'Reopened'`,
      `outcome "Won" is not one of 'Dismissed', 'Claim Denied', 'Settled', 'Closed - No Payment', 'Summary Judgement'`,
      'claimDate "13/01/2020" is not a date (mm/dd/yyyy)',
      'indemnityPaid "-5" is not an amount of US dollars',
    ]);
    expect(checkClaimRow({ ...good, status: 'Open' }).reasons).toEqual(['outcome must be empty while the claim is Open']);
    expect(checkClaimRow({ ...good, outcome: '' }).reasons).toEqual(['outcome is required for a Final claim']);
  });
  it('takes a middle initial as one letter with or without its dot (the claim key the import merges on)', () => {
    for (const initial of ['Q', 'Q.', '.Q', 'é']) expect(checkClaimRow({ ...good, physicianMiddleInitial: initial }).reasons).toEqual([]);
    for (const initial of ['..', 'QR', 'Q..', '7']) {
      expect(checkClaimRow({ ...good, physicianMiddleInitial: initial }).reasons).toEqual(['physicianMiddleInitial must be one letter']);
    }
  });
});

describe('admin search and export', () => {
  it('needs a parameter besides the count, from not after to, count at least 1', () => {
    expect(searchErrors({ limit: 5 })).toEqual({ search: DESK_MESSAGES.searchParamsNeeded });
    expect(searchErrors({ searchFrom: '2025-02-01T11:00:00.000Z', searchTo: '2025-01-01T11:00:00.000Z' }))
      .toEqual({ searchFrom: DESK_MESSAGES.fromAfterTo, searchTo: DESK_MESSAGES.toBeforeFrom });
    expect(searchErrors({ clinLastName: 'x', limit: 0 }).limit).toBeTruthy();
    expect(normalizeVehicleId(' 1hg-cm8 26 ')).toBe('1HGCM826');
    expect(requestTypeLabelOf({ requestType: 'certificate', certificateType: 'Auto Liability', autoType: 'Rental' })).toBe('COI Request: Rental');
    expect(exportFileName(new Date(2026, 10, 22, 3, 4, 5))).toBe('coi_export_2026-11-22_030405');
  });
});
