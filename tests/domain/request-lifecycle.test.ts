import { describe, expect, it } from 'vitest';
import {
  adminStatusChoices, applyLifecycleEvent, canApply, snapshotFor, statusChoicesNow, STATUS, type LifecycleContext,
} from '../../domain';

const credentialing: LifecycleContext = { requestType: 'credentialing' };
const contracts: LifecycleContext = { requestType: 'certificate', certificateType: 'Contracts/Lease' };
const event = (status: string, verified = true) => ({ type: 'SET_STATUS' as const, status: status as never, verified });

describe('request lifecycle machine', () => {
  it('a draft can only be submitted', () => {
    expect(applyLifecycleEvent(STATUS.draft, credentialing, { type: 'SUBMIT' })).toEqual({ ok: true, status: 'Submitted' });
    expect(canApply(STATUS.draft, credentialing, event(STATUS.approved))).toBe(false);
    expect(canApply(STATUS.draft, credentialing, { type: 'REOPEN' })).toBe(false);
  });

  it('an admin moves a submitted request to any of its type\'s choices', () => {
    expect(statusChoicesNow(STATUS.submitted, credentialing)).toEqual([
      'Pending Additional Information', 'Pending Employment', 'Pending New Policy Year', 'Approved', 'Denied', 'Closed',
    ]);
    for (const status of adminStatusChoices(credentialing)) {
      expect(applyLifecycleEvent(STATUS.submitted, credentialing, event(status))).toEqual({ ok: true, status });
    }
  });

  it('Approved with Letter of Intent exists only for contracts/lease certificates', () => {
    expect(statusChoicesNow(STATUS.submitted, contracts)).toContain('Approved with Letter of Intent');
    expect(statusChoicesNow(STATUS.submitted, { requestType: 'certificate', certificateType: 'Event' })).not.toContain('Approved with Letter of Intent');
    expect(canApply(STATUS.submitted, credentialing, event(STATUS.approvedWithLetterOfIntent))).toBe(false);
  });

  it('completed statuses on credentialing and contracts need the verified box: "Verification required"', () => {
    expect(applyLifecycleEvent(STATUS.submitted, credentialing, event(STATUS.approved, false)))
      .toEqual({ ok: false, message: 'Verification required' });
    expect(applyLifecycleEvent(STATUS.submitted, contracts, event(STATUS.approvedWithLetterOfIntent, false)))
      .toEqual({ ok: false, message: 'Verification required' });
    // Other certificate subtypes and non-completed statuses do not.
    expect(canApply(STATUS.submitted, { requestType: 'certificate', certificateType: 'Event' }, event(STATUS.approved, false))).toBe(true);
    expect(canApply(STATUS.submitted, credentialing, event(STATUS.denied, false))).toBe(true);
  });

  it('finished requests accept only Reopen, which leads back to Draft', () => {
    for (const finished of [STATUS.approved, STATUS.denied, STATUS.closed]) {
      expect(statusChoicesNow(finished, credentialing)).toEqual([]);
      expect(applyLifecycleEvent(finished, credentialing, event(STATUS.pendingAdditionalInformation))).toEqual({
        ok: false, message: `A request in status "${finished}" cannot be changed to "Pending Additional Information"`,
      });
      expect(applyLifecycleEvent(finished, credentialing, { type: 'REOPEN' })).toEqual({ ok: true, status: 'Draft' });
    }
    expect(canApply(STATUS.submitted, credentialing, { type: 'REOPEN' })).toBe(false);
  });

  it('a request waiting for more information can be resubmitted by its requester', () => {
    expect(applyLifecycleEvent(STATUS.pendingAdditionalInformation, credentialing, { type: 'SUBMIT' })).toEqual({ ok: true, status: 'Submitted' });
    expect(canApply(STATUS.pendingEmployment, credentialing, { type: 'SUBMIT' })).toBe(false);
  });

  it('the current status is never offered as a change', () => {
    expect(statusChoicesNow(STATUS.pendingEmployment, credentialing)).not.toContain(STATUS.pendingEmployment);
  });

  it('tags tell the UI what is editable and finished', () => {
    expect(snapshotFor(STATUS.draft, credentialing).hasTag('editable')).toBe(true);
    expect(snapshotFor(STATUS.pendingAdditionalInformation, credentialing).hasTag('editable')).toBe(true);
    expect(snapshotFor(STATUS.submitted, credentialing).hasTag('editable')).toBe(false);
    expect(snapshotFor(STATUS.approved, credentialing).hasTag('finished')).toBe(true);
  });
});
