import { describe, expect, it } from 'vitest';
import {
  discussionErrors, discussionRecipients, MESSAGES, notificationTemplateFor, STATUS, statusEmailRecipients, MESSAGE_MAX, onDemandRecipients, requesterConfirmationFor, THREAD_ID_PATTERN, threadIdFrom,
} from '../../domain';

describe('thread ids and message limits', () => {
  it('a thread id is 12 random uppercase letters', () => {
    const id = threadIdFrom(new Uint8Array([0, 25, 26, 255, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(id).toMatch(THREAD_ID_PATTERN);
    expect(id.slice(0, 3)).toBe('AZA');
  });
  it('topic is required on a new thread only; message required, at most 800', () => {
    expect(discussionErrors({ message: 'x' })).toEqual({ topic: MESSAGES.required });
    expect(discussionErrors({ message: 'x', discussionId: 'ABCDEFGHIJKL' })).toEqual({});
    expect(discussionErrors({ topic: 'T', message: ' ' })).toEqual({ message: MESSAGES.required });
    expect(discussionErrors({ topic: 'T', message: 'x'.repeat(MESSAGE_MAX) })).toEqual({});
    expect(discussionErrors({ topic: 'T', message: 'x'.repeat(MESSAGE_MAX + 1) }).message).toMatch(/800/);
    expect(discussionErrors({ message: 'x', discussionId: 'abc' }).discussionId).toBeTruthy();
  });
});

describe('recipients', () => {
  it('an email sent by hand: requester first, then the additional ones split on spaces, semicolons and commas', () => {
    expect(onDemandRecipients('Req@Example.org', 'a@x.org; b@y.org,c@z.org  a@x.org')).toEqual({
      recipients: ['req@example.org', 'a@x.org', 'b@y.org', 'c@z.org'], invalid: [],
    });
  });
  it('bad addresses are named', () => {
    expect(onDemandRecipients('req@example.org', 'good@x.org, not-an-address;also@bad')).toEqual({
      recipients: ['req@example.org', 'good@x.org'], invalid: ['not-an-address', 'also@bad'],
    });
  });
  it('Request Discussion goes to the other side', () => {
    const request = { requesterEmail: 'req@example.org', recipientEmail: 'rec@example.org', addlRecipients: 'x@example.org' };
    expect(discussionRecipients(request, true, 'rm@example.org')).toEqual(['req@example.org', 'rec@example.org', 'x@example.org']);
    expect(discussionRecipients(request, false, 'RM@example.org')).toEqual(['rm@example.org']);
  });
});

describe('resubmission', () => {
  it('submitting again from Pending Additional Information sends Request Resubmission to the administrators only', () => {
    expect(notificationTemplateFor({ requestType: 'credentialing', previousStatus: STATUS.pendingAdditionalInformation, newStatus: STATUS.submitted })).toBe('Request Resubmission');
    const request = { requesterEmail: 'req@example.org' };
    expect(statusEmailRecipients('Request Resubmission', request, 'rm@example.org')).toEqual(['rm@example.org']);
    expect(statusEmailRecipients('Additional Information Needed', request, 'rm@example.org')).toEqual(['req@example.org']);
  });

  it('confirms itself to the requester too: a change to Submitted gives Submission Confirmation (spec 1 §4), and only a resubmission sends two', () => {
    const resubmission = { requestType: 'certificate' as const, previousStatus: STATUS.pendingAdditionalInformation, newStatus: STATUS.submitted };
    expect(requesterConfirmationFor(resubmission)).toBe('Submission Confirmation');
    const request = { requesterEmail: 'Req@example.org', recipientEmail: 'holder@example.org', addlRecipients: 'cc@example.org' };
    expect(statusEmailRecipients('Submission Confirmation', request, 'rm@example.org')).toEqual(['req@example.org', 'holder@example.org', 'cc@example.org']);
    for (const previousStatus of [STATUS.draft, STATUS.pendingEmployment, STATUS.pendingNewPolicyYear, STATUS.submitted]) {
      expect(requesterConfirmationFor({ ...resubmission, previousStatus }), previousStatus).toBeNull();
    }
    expect(requesterConfirmationFor({ ...resubmission, newStatus: STATUS.approved })).toBeNull();
  });
});
