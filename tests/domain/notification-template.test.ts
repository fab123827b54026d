import { describe, expect, it } from 'vitest';
import { emailRecipients, notificationTemplateFor, STATUS, EMAIL_TEMPLATE_ORDER } from '../../domain';

const change = (previousStatus: string, newStatus: string, requestType: 'credentialing' | 'certificate' = 'credentialing') =>
  notificationTemplateFor({ requestType, previousStatus: previousStatus as never, newStatus: newStatus as never });

describe('notification template on a status change (spec 1 §4)', () => {
  it('picks the template by the new status', () => {
    expect(change(STATUS.draft, STATUS.submitted)).toBe('Submission Confirmation');
    expect(change(STATUS.submitted, STATUS.pendingAdditionalInformation)).toBe('Additional Information Needed');
    expect(change(STATUS.submitted, STATUS.pendingEmployment)).toBe('Pending Employment');
    expect(change(STATUS.submitted, STATUS.pendingNewPolicyYear)).toBe('Pending New Policy Year');
    expect(change(STATUS.submitted, STATUS.pendingOca, 'certificate')).toBe('Pending Off-Campus Authorization (OCA)/Contract');
  });

  it('distinguishes denial templates by request type', () => {
    expect(change(STATUS.submitted, STATUS.denied, 'credentialing')).toBe('Credentialing Request Denied');
    expect(change(STATUS.submitted, STATUS.denied, 'certificate')).toBe('Certificate Request Denied');
  });

  it('uses the approval templates for approved statuses', () => {
    expect(change(STATUS.submitted, STATUS.approved, 'credentialing')).toBe('Credentialing Request Approved');
    expect(change(STATUS.submitted, STATUS.approved, 'certificate')).toBe('Certificate Request Approved');
    expect(change(STATUS.submitted, STATUS.approvedWithLetterOfIntent, 'certificate')).toBe('Certificate Request Approved with Letter of Intent');
  });

  it('sends nothing when the status is unchanged, goes back to draft, or was Approved, Approved with LOI or Denied', () => {
    expect(change(STATUS.pendingEmployment, STATUS.pendingEmployment)).toBeNull();
    expect(change(STATUS.approved, STATUS.draft)).toBeNull();
    for (const decided of [STATUS.approved, STATUS.approvedWithLetterOfIntent, STATUS.denied]) {
      expect(change(decided, STATUS.pendingAdditionalInformation)).toBeNull();
      expect(change(decided, STATUS.submitted)).toBeNull();
    }
    expect(change(STATUS.submitted, STATUS.closed)).toBeNull(); // Closed has no template
  });

  it('lists the twelve templates with the spec order values', () => {
    expect(EMAIL_TEMPLATE_ORDER.map(([, order]) => order)).toEqual([3, 5, 7, 10, 11, 12, 15, 20, 25, 30, 35, 40]);
    expect(new Set(EMAIL_TEMPLATE_ORDER.map(([t]) => t)).size).toBe(12);
  });
});

describe('email recipients (spec 2 §7.9)', () => {
  it('puts the requester first and splits additional recipients on spaces, semicolons and commas', () => {
    expect(emailRecipients({ requesterEmail: 'Req@x.org', recipientEmail: 'cred@hosp.org', addlRecipients: 'a@x.org; b@x.org,c@x.org  req@x.org' }))
      .toEqual(['req@x.org', 'cred@hosp.org', 'a@x.org', 'b@x.org', 'c@x.org']);
  });
});
