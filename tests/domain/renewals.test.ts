/**
 * The renewal rules of domain/renewals.ts: which certificates renew and why, what a mark does, the period a renewed
 * certificate covers, the window a run looks in, and what a reply's first word answers.
 */
import { describe, expect, it } from 'vitest';
import {
  answerOfReply, defaultRenewalWindow, policyYearLabel, renewalCoverageError, renewalPercent, renewalPeriod, renewalRecipients, renewalVerdict,
  type RenewalFacts,
} from '../../domain';

const YEAR_END = '2027-06-30';
const NEXT = { startDate: '2027-07-01T11:00:00.000Z', endDate: '2028-06-30T11:00:00.000Z' };
const day = (d: string) => `${d}T11:00:00.000Z`;
const verdict = (facts: Partial<RenewalFacts>) => renewalVerdict({ certificateType: null, ...facts }, YEAR_END);

describe('whose need plausibly continues', () => {
  it('a lease that runs past the year renews; one that expires with it does not; a contract stands', () => {
    expect(verdict({ certificateType: 'Contracts/Lease', contractLeaseType: 'Lease', leaseExpirationDate: day('2029-06-30') })).toEqual({ renew: true, reason: 'Lease runs to 06/30/2029' });
    expect(verdict({ certificateType: 'Contracts/Lease', contractLeaseType: 'Lease', leaseExpirationDate: day(YEAR_END) })).toEqual({ renew: false, reason: 'Lease expires 06/30/2027' });
    expect(verdict({ certificateType: 'Contracts/Lease', contractLeaseType: 'Lease' })).toEqual({ renew: false, reason: 'Lease with no expiration date on record' });
    expect(verdict({ certificateType: 'Contracts/Lease', contractLeaseType: 'Contract' })).toEqual({ renew: true, reason: 'Standing contract' });
  });

  it('a fleet vehicle in service renews; decommissioned or transferred it does not; a rental only when it runs on', () => {
    expect(verdict({ certificateType: 'Auto Liability', autoType: 'New/Leased Fleet Vehicle' })).toEqual({ renew: true, reason: 'Fleet vehicle still in service' });
    expect(verdict({ certificateType: 'Auto Liability', autoType: 'New/Leased Fleet Vehicle', vehicleDecommissioned: true }).renew).toBe(false);
    expect(verdict({ certificateType: 'Auto Liability', autoType: 'New/Leased Fleet Vehicle', vehicleTransferred: true })).toEqual({ renew: false, reason: 'Vehicle transferred' });
    expect(verdict({ certificateType: 'Auto Liability', autoType: 'Rental', rentalEndDate: day('2027-03-05') })).toEqual({ renew: false, reason: 'Rental ended 03/05/2027' });
    expect(verdict({ certificateType: 'Auto Liability', autoType: 'Rental', rentalEndDate: day('2027-08-05') }).renew).toBe(true);
  });

  it('events, clinicians and providers by their end dates; property stands', () => {
    expect(verdict({ certificateType: 'Event', eventEndDate: day('2027-05-01') })).toEqual({ renew: false, reason: 'Event ended 05/01/2027' });
    expect(verdict({ certificateType: 'Event', eventEndDate: day('2027-07-02') })).toEqual({ renew: true, reason: 'Event runs to 07/02/2027' });
    expect(verdict({ certificateType: 'Clinician', dateTo: day('2028-12-31') })).toEqual({ renew: true, reason: 'Standing clinician certificate to 12/31/2028' });
    expect(verdict({ certificateType: 'Provider', dateTo: day('2027-06-30') })).toEqual({ renew: false, reason: 'Coverage dates ended 06/30/2027' });
    expect(verdict({ certificateType: 'Provider' })).toEqual({ renew: true, reason: 'Standing provider certificate' });
    expect(verdict({ certificateType: 'Property' })).toEqual({ renew: true, reason: 'Standing property certificate' });
  });

  it('a mark overrides the rules: "never renew" always, "renews automatically" always, saying why', () => {
    expect(verdict({ certificateType: 'Property', renewalPreference: 'never' })).toEqual({ renew: false, reason: 'Marked "never renew"' });
    expect(verdict({ certificateType: 'Event', eventEndDate: day('2027-05-01'), renewalPreference: 'auto' })).toEqual({ renew: true, reason: 'Marked "renews automatically"' });
    expect(verdict({ certificateType: 'Property', renewalPreference: 'auto' })).toEqual({ renew: true, reason: 'Marked "renews automatically"; standing property certificate' });
  });
});

describe('what a renewal covers', () => {
  it('the new policy year, cut to the request\'s own dates where it has them', () => {
    expect(renewalPeriod({ certificateType: 'Property' }, NEXT)).toEqual({ from: '2027-07-01', to: '2028-06-30' });
    expect(renewalPeriod({ certificateType: 'Clinician', dateFrom: day('2025-01-01'), dateTo: day('2027-12-31') }, NEXT)).toEqual({ from: '2027-07-01', to: '2027-12-31' });
    expect(renewalPeriod({ certificateType: 'Event', eventStartDate: day('2027-07-10'), eventEndDate: day('2027-07-12') }, NEXT)).toEqual({ from: '2027-07-10', to: '2027-07-12' });
  });

  it('own dates wholly after the year keep their own period, which no year may cover yet: the run lists it as not fitting', () => {
    const period = renewalPeriod({ certificateType: 'Event', eventStartDate: day('2028-08-01'), eventEndDate: day('2028-08-02') }, NEXT);
    expect(period).toEqual({ from: '2028-08-01', to: '2028-08-02' });
    expect(renewalCoverageError(period, [NEXT])).toBe('No policy year on record covers 08/01/2028 – 08/02/2028.');
    expect(renewalCoverageError({ from: '2027-07-01', to: '2028-06-30' }, [NEXT])).toBeNull();
  });

  it('the default window is the month before the new year; the year is named as people name it', () => {
    expect(defaultRenewalWindow(NEXT.startDate)).toEqual({ from: '2027-05-31', to: '2027-06-30' });
    expect(policyYearLabel(NEXT)).toBe('2027–2028');
  });

  it('the renewed certificate goes to the request\'s recipients and the holder, each once', () => {
    expect(renewalRecipients({ requesterEmail: 'A@x.example', addlRecipients: 'b@x.example', certificateHolderEmail: 'Holder@y.example' }))
      .toEqual(['a@x.example', 'b@x.example', 'holder@y.example']);
    expect(renewalRecipients({ requesterEmail: 'a@x.example', certificateHolderEmail: 'a@x.example' })).toEqual(['a@x.example']);
    expect(renewalRecipients({ requesterEmail: 'a@x.example', certificateHolderEmail: 'not an address' })).toEqual(['a@x.example']);
  });
});

describe('answers and progress', () => {
  it('a reply answers by its first word; anything else answers nothing', () => {
    expect(answerOfReply('Yes, please renew it.')).toBe('yes');
    expect(answerOfReply('  no\nthanks')).toBe('no');
    expect(answerOfReply('Not sure yet, call me')).toBeNull();
    expect(answerOfReply('')).toBeNull();
  });

  it('the bar counts what is behind the run: done, failed and not renewed', () => {
    expect(renewalPercent({ total: 10, done: 3, waiting: 2, failed: 1, remaining: 3, notRenewed: 1 })).toBe(50);
    expect(renewalPercent({ total: 0, done: 0, waiting: 0, failed: 0, remaining: 0, notRenewed: 0 })).toBe(100);
  });
});
