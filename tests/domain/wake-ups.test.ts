/** The wake-up rules and the lifecycle's WAKE event, as pure functions. */
import { describe, expect, it } from 'vitest';
import { seedPolicyYears } from '../../db/seed-data';
import {
  ADMINISTRATOR_TEMPLATES, applyLifecycleEvent, certificateCoverageError, coveredPeriod, uncoveredCertificateMessage, isSharedIsCode, namesPerson, notificationTemplateFor, periodCovered, personalEmployeeId,
  REQUEST_RETURNED_TO_REVIEW, STATUS, statusChoicesNow, wakeCommandIdOf,
} from '../../domain';

const year = (start: number) => ({ startDate: `${start}-07-01T11:00:00.000Z`, endDate: `${start + 1}-06-30T11:00:00.000Z` });
const credentialing = { requestType: 'credentialing' as const };

describe('WAKE in the lifecycle', () => {
  it('returns a request waiting for a policy year or employment to Submitted, for its own reason only', () => {
    expect(applyLifecycleEvent(STATUS.pendingNewPolicyYear, credentialing, { type: 'WAKE', reason: 'policy-year' })).toEqual({ ok: true, status: STATUS.submitted });
    expect(applyLifecycleEvent(STATUS.pendingEmployment, credentialing, { type: 'WAKE', reason: 'employment' })).toEqual({ ok: true, status: STATUS.submitted });
    expect(applyLifecycleEvent(STATUS.pendingEmployment, credentialing, { type: 'WAKE', reason: 'policy-year' })).toEqual({
      ok: false, message: `A request in status "${STATUS.pendingEmployment}" is not waiting in "${STATUS.pendingNewPolicyYear}"`,
    });
    for (const status of [STATUS.submitted, STATUS.pendingAdditionalInformation, STATUS.approved, STATUS.draft]) {
      expect(applyLifecycleEvent(status, credentialing, { type: 'WAKE', reason: 'employment' }).ok, status).toBe(false);
    }
  });

  it('does not offer Submitted to administrators: only a wake-up leaves a waiting status for it', () => {
    expect(statusChoicesNow(STATUS.pendingEmployment, credentialing)).not.toContain(STATUS.submitted);
  });

  it('emails the administrators Request Returned to Review on a wake-up, and nothing changes for the twelve', () => {
    expect(notificationTemplateFor({ requestType: 'certificate', previousStatus: STATUS.pendingNewPolicyYear, newStatus: STATUS.submitted })).toBe(REQUEST_RETURNED_TO_REVIEW);
    expect(notificationTemplateFor({ requestType: 'credentialing', previousStatus: STATUS.pendingEmployment, newStatus: STATUS.submitted })).toBe(REQUEST_RETURNED_TO_REVIEW);
    expect(notificationTemplateFor({ requestType: 'credentialing', previousStatus: STATUS.draft, newStatus: STATUS.submitted })).toBe('Submission Confirmation');
    expect(ADMINISTRATOR_TEMPLATES).toContain(REQUEST_RETURNED_TO_REVIEW);
  });

  it('names the update after request, reason, cause and version', () => {
    expect(wakeCommandIdOf(50012, 'policy-year', 7, 3)).toBe('wake:50012:policy-year:7:v3');
  });
});

describe('policy years covering a request', () => {
  it('needs every day of the period inside some policy year, across consecutive years', () => {
    expect(periodCovered([year(2071)], '2071-08-01', '2071-12-31')).toBe(true);
    expect(periodCovered([year(2071)], '2071-08-01', '2072-08-01')).toBe(false);
    expect(periodCovered([year(2072), year(2071)], '2071-08-01', '2072-08-01')).toBe(true);
    expect(periodCovered([year(2071), year(2073)], '2071-08-01', '2073-08-01')).toBe(false); // a year missing between
    expect(periodCovered([], '2071-08-01', '2071-08-01')).toBe(false);
  });

  it('takes the dates of the request kind: credentialing, clinician, event, rental; else the day it is judged', () => {
    expect(coveredPeriod({ requestType: 'credentialing', dateFrom: '2020-01-01T11:00:00.000Z', dateTo: '2024-12-31T11:00:00.000Z' }, '2026-11-22T00:00:00Z'))
      .toEqual({ from: '2020-01-01', to: '2024-12-31' });
    expect(coveredPeriod({ requestType: 'certificate', certificateType: 'Event', eventStartDate: new Date('2071-08-01T11:00:00Z') }, '2026-11-22T00:00:00Z'))
      .toEqual({ from: '2071-08-01', to: '2071-08-01' });
    expect(coveredPeriod({ requestType: 'certificate', certificateType: 'Auto Liability', autoType: 'Rental', rentalStartDate: '2071-03-01T11:00:00Z', rentalEndDate: '2071-03-05T11:00:00Z' }, '2026-11-22T00:00:00Z'))
      .toEqual({ from: '2071-03-01', to: '2071-03-05' });
    expect(coveredPeriod({ requestType: 'certificate', certificateType: 'Property' }, '2026-11-22T09:00:00Z')).toEqual({ from: '2026-11-22', to: '2026-11-22' });
  });
});

describe('the clinician in the directory', () => {
  it('matches by employee id, or by email when the request has none', () => {
    const person = { employeeId: 'W7001', email: 'New.Hire@hospital.example' };
    expect(namesPerson({ employeeId: ' w7001 ' }, person)).toBe(true);
    expect(namesPerson({ employeeId: 'W7002', email: 'new.hire@hospital.example' }, person)).toBe(false);
    expect(namesPerson({ employeeId: null, email: 'new.hire@hospital.example' }, person)).toBe(true);
    expect(namesPerson({ employeeId: '', email: null }, person)).toBe(false);
  });

  const hired = { employeeId: '204518', lastName: 'Okafor', firstName: 'Ada', birthDate: '1990-04-12T11:00:00.000Z', email: 'ada.okafor@ohsu.example' };
  const notYetHere = { employeeId: '22222', lastName: 'Okafor', firstName: 'Ada', birthDate: '1990-04-12T11:00:00.000Z', email: 'ada@gmail.example' };

  it('never takes a shared IS code for a person: not on the request, not in the directory', () => {
    expect(isSharedIsCode(' 22222 ')).toBe(true);
    expect(personalEmployeeId('12345')).toBeNull();
    expect(personalEmployeeId(' 204518 ')).toBe('204518');
    // Another "Not yet at the university" person saved active is not this request's clinician, whoever they are.
    const someoneElse = { ...notYetHere, lastName: 'Lindqvist', firstName: 'Bo', birthDate: '1985-01-01T11:00:00.000Z', email: 'bo@x.example' };
    expect(namesPerson(notYetHere, someoneElse)).toBe(false);
    // Not even the same person while the directory still lists them under the code.
    expect(namesPerson(notYetHere, { ...notYetHere })).toBe(false);
  });

  it('finds the clinician hired under a new id by name and birth date, or by email', () => {
    expect(namesPerson(notYetHere, hired)).toBe(true); // same names and day of birth, another email
    expect(namesPerson({ ...notYetHere, birthDate: new Date('1990-04-12T03:00:00Z') }, hired)).toBe(true); // the day, not the hour
    expect(namesPerson({ ...notYetHere, lastName: ' okafor ', birthDate: null, email: 'ADA.OKAFOR@ohsu.example' }, hired)).toBe(true);
    expect(namesPerson({ employeeId: null, lastName: 'Okafor', firstName: 'Ada', birthDate: '1990-04-12T11:00:00.000Z' }, hired)).toBe(true);
  });

  it('never wakes for a namesake: same name, another birth date and email', () => {
    const namesake = { ...hired, employeeId: '377001', birthDate: '1971-09-30T11:00:00.000Z', email: 'a.okafor@ohsu.example' };
    expect(namesPerson(notYetHere, namesake)).toBe(false);
    expect(namesPerson({ ...notYetHere, birthDate: null }, hired)).toBe(false); // a name alone proves nothing
    // A personal employee id on the request decides alone: the same name and birth date under another id is not them.
    expect(namesPerson({ ...notYetHere, employeeId: '204519' }, hired)).toBe(false);
  });
});

describe('no certificate without coverage', () => {
  const years = [year(2024), year(2025)];
  const event = (from: string, to: string) => ({ requestType: 'certificate' as const, certificateType: 'Event', eventStartDate: `${from}T11:00:00.000Z`, eventEndDate: `${to}T11:00:00.000Z` });
  it('refuses issuing when a day of the period lies outside every policy year, for both approvals', () => {
    expect(certificateCoverageError(event('2026-04-18', '2026-04-19'), STATUS.approved, years, '2026-01-01')).toBeNull();
    expect(certificateCoverageError(event('2026-06-30', '2026-07-01'), STATUS.approved, years, '2026-01-01')).toBe(uncoveredCertificateMessage('2026-06-30', '2026-07-01'));
    expect(certificateCoverageError(event('2026-06-30', '2026-07-01'), STATUS.approvedWithLetterOfIntent, years, '2026-01-01')).not.toBeNull();
  });
  it('asks nothing of other statuses or of claim history requests; a certificate without dates is dated the issue day', () => {
    expect(certificateCoverageError(event('2090-01-01', '2090-01-02'), STATUS.denied, years, '2026-01-01')).toBeNull();
    expect(certificateCoverageError(event('2090-01-01', '2090-01-02'), STATUS.pendingNewPolicyYear, years, '2026-01-01')).toBeNull();
    expect(certificateCoverageError({ requestType: 'credentialing', dateFrom: '2090-01-01T11:00:00Z', dateTo: '2090-01-02T11:00:00Z' }, STATUS.approved, years, '2026-01-01')).toBeNull();
    const property = { requestType: 'certificate' as const, certificateType: 'Property' };
    expect(certificateCoverageError(property, STATUS.approved, years, '2026-11-24')).toBe(uncoveredCertificateMessage('2026-11-24', '2026-11-24'));
    expect(uncoveredCertificateMessage('2026-11-24', '2026-11-24')).toContain('covers 11/24/2026, so');
  });
  it('the development seed runs through the policy year after the current one', () => {
    const years = seedPolicyYears(new Date('2026-11-24T12:00:00Z'));
    expect(years[0].startDate.toISOString()).toBe('2002-07-01T11:00:00.000Z');
    expect(years.at(-1)!.endDate.toISOString()).toBe('2028-06-30T11:00:00.000Z');
    expect(seedPolicyYears(new Date('2027-03-01T12:00:00Z')).at(-1)!.endDate.toISOString()).toBe('2028-06-30T11:00:00.000Z');
    expect(years.find((y) => y.policyNumber === 'UHS-PL-2024-25')).toMatchObject({ limitClaim: '2565400.00', annualAggregate: '5130700.00' });
  });
});
