/**
 * Which email template a status change sends (spec 1 §4 "Notification email on a status change", spec 2 §7.3).
 * Sent only if the request is not a draft, the status changed, and the previous status was not Approved,
 * Approved with Letter of Intent or Denied. Approved statuses use the approval templates (approval-email call).
 */
import type { RequestType } from './reference-lists';
import { CLOCK_TEMPLATE_ORDER, type ClockTemplateTitle } from './request-clocks';
import { DECIDED_STATUSES, STATUS, type RequestStatus } from './request-status';
import { REQUEST_RETURNED_TO_REVIEW, wakeReasonOf } from './wake-ups';
import { CERTIFICATE_REVOKED_TEMPLATE } from './issued-letters';
import { CERTIFICATE_RENEWED_TEMPLATE, RENEWAL_QUESTION_TEMPLATE } from './renewals';

/** The twelve template titles of spec 2 §9.3 with the order values listed there (paired in listed order). */
export const EMAIL_TEMPLATE_TITLES = {
  submissionConfirmation: 'Submission Confirmation',
  credentialingApproved: 'Credentialing Request Approved',
  credentialingDenied: 'Credentialing Request Denied',
  certificateApproved: 'Certificate Request Approved',
  certificateApprovedLetterOfIntent: 'Certificate Request Approved with Letter of Intent',
  certificateDenied: 'Certificate Request Denied',
  additionalInformationNeeded: 'Additional Information Needed',
  pendingEmployment: 'Pending Employment',
  pendingNewPolicyYear: 'Pending New Policy Year',
  pendingOca: 'Pending Off-Campus Authorization (OCA)/Contract',
  requestResubmission: 'Request Resubmission',
  requestDiscussion: 'Request Discussion',
} as const;
export type EmailTemplateTitle = (typeof EMAIL_TEMPLATE_TITLES)[keyof typeof EMAIL_TEMPLATE_TITLES];

export const EMAIL_TEMPLATE_ORDER: ReadonlyArray<readonly [EmailTemplateTitle, number]> = Object.values(EMAIL_TEMPLATE_TITLES)
  .map((title, i) => [title, [3, 5, 7, 10, 11, 12, 15, 20, 25, 30, 35, 40][i]] as const);

/**
 * Every template the portal seeds and sends: the twelve of the spec, then the ones the request clocks send
 * (domain/request-clocks.ts), which come after them without changing their titles or orders.
 */
export const ALL_EMAIL_TEMPLATE_ORDER: ReadonlyArray<readonly [EmailTemplateTitle | ClockTemplateTitle, number]> = [
  ...EMAIL_TEMPLATE_ORDER, ...CLOCK_TEMPLATE_ORDER,
];
/**
 * Every title an email may be sent (again) with: the above, plus the wake-up's and the revocation's (seeded beside
 * them, db/seed-data.ts; the revocation's only again, after it failed: services/requests/request-commands.ts).
 */
export const ALL_EMAIL_TEMPLATE_TITLES: readonly string[] = [
  ...ALL_EMAIL_TEMPLATE_ORDER.map(([title]) => title), REQUEST_RETURNED_TO_REVIEW, CERTIFICATE_REVOKED_TEMPLATE,
  CERTIFICATE_RENEWED_TEMPLATE, RENEWAL_QUESTION_TEMPLATE,
];

interface StatusChange {
  requestType: RequestType;
  previousStatus: RequestStatus;
  newStatus: RequestStatus;
}

/** Template for a status change, or null when no email goes out. */
export function notificationTemplateFor({ requestType, previousStatus, newStatus }: StatusChange): EmailTemplateTitle | typeof REQUEST_RETURNED_TO_REVIEW | null {
  const T = EMAIL_TEMPLATE_TITLES;
  // Submitting a draft is the submission itself, confirmed by its own email; any other change
  // away from Draft (there is none in the lifecycle) and every change *to* Draft (Reopen) sends nothing.
  if (previousStatus === STATUS.draft) return newStatus === STATUS.submitted ? T.submissionConfirmation : null;
  if (newStatus === STATUS.draft) return null;
  if (previousStatus === newStatus) return null;
  if (DECIDED_STATUSES.includes(previousStatus)) return null;
  switch (newStatus) {
    // Submitted again after more information was asked for: the administrators hear of it (domain/email-recipients.ts).
    case STATUS.submitted:
      if (previousStatus === STATUS.pendingAdditionalInformation) return T.requestResubmission;
      // Only a wake-up leaves a waiting status for Submitted (domain/wake-ups.ts): the administrators hear of it.
      return wakeReasonOf(previousStatus) ? REQUEST_RETURNED_TO_REVIEW : T.submissionConfirmation;
    case STATUS.pendingAdditionalInformation: return T.additionalInformationNeeded;
    case STATUS.pendingEmployment: return T.pendingEmployment;
    case STATUS.pendingNewPolicyYear: return T.pendingNewPolicyYear;
    case STATUS.pendingOca: return T.pendingOca;
    case STATUS.denied: return requestType === 'credentialing' ? T.credentialingDenied : T.certificateDenied;
    case STATUS.approved: return requestType === 'credentialing' ? T.credentialingApproved : T.certificateApproved;
    case STATUS.approvedWithLetterOfIntent: return T.certificateApprovedLetterOfIntent;
    default: return null; // Closed has no template in spec 2 §9.3.
  }
}

/**
 * The requester's own email beside the one a change sends the administrators. A resubmission (Pending Additional
 * Information to Submitted) is a status change to Submitted on a request that is not a draft, which spec 1 §4 and
 * spec 2 §7.3 confirm with Submission Confirmation to the requester (and the recipients: domain/email-recipients.ts);
 * the administrators' mailbox gets Request Resubmission beside it. No other change sends two.
 */
export function requesterConfirmationFor({ previousStatus, newStatus }: StatusChange): EmailTemplateTitle | null {
  return previousStatus === STATUS.pendingAdditionalInformation && newStatus === STATUS.submitted
    ? EMAIL_TEMPLATE_TITLES.submissionConfirmation : null;
}
