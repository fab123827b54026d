/** User-facing strings quoted verbatim from spec 2 §8.3 (and spec 1 §5). One place for every message. */
export const MESSAGES = {
  loginFailed: 'Login failed. Please confirm your email and password and try again.',
  /** spec 2 §8.2: the answer to an update of many records at once (PATCH on a collection), which is not served */
  multiNotSupported: 'multi not yet supported for this method',
  sessionExpired: 'Your session has expired. Please log in again.',
  inactiveUser: 'User account has been deactivated.',
  required: 'The field above is required',
  fieldValidation: 'Field validation error.',
  dateInputInvalid: 'Date input not valid.',
  invalidEmail: 'Please enter a valid email address',
  phoneFormat: 'Please format like 503-123-1234',
  requestDateFormat: 'Please format like mm/dd/yyyy',
  requiredDocuments: 'Please add required document(s) as described above',
  selectFile: 'Please select a file',
  documentExists: 'This document already exists',
  verificationRequired: 'Verification required',
  adminSaveFailed: 'Oops, there was a problem saving. Please refresh this page and try again.',
  dashboardLoadFailed: 'Oops, there was an error retrieving your requests. Please refresh this page to try again.',
  deleteConfirm: 'Are you sure you want to delete this request?',
  deleteConfirmYes: 'Yes, please!',
  deleteFailed: 'Oops, something went wrong. Please cancel and try again.',
  genericPageError: 'Oops, something went wrong. Please refresh this page to try again.',
  emptyRequests: 'Currently no requests of this type.',
  emptyDocuments: 'No documents.',
  emptyActivity: 'No activity recorded, yet.',
  emptyDiscussions: 'No discussions.',
  notFoundPage: 'No page exists at this URL.',
  forbiddenPage: 'You do not have authorization to access this page.',
  forbiddenPageHelp: 'Please contact a system administrator if you feel this is in error.',
  errorPage: 'Oops, something went wrong',
  noAccessToken: 'No accessToken found in storage',
  /** Our wording (the spec shows none): the answer to any other call while the password must change. */
  passwordChangeRequired: 'Your password must be changed before you continue.',
  passwordRequirements: 'Password does not meet requirements',
  passwordsDontMatch: "New and re-typed passwords don't match",
  confirmationMismatch: 'Confirmation does not match',
  currentPasswordFailed: 'Current password failed authentication',
  samePassword: 'New password cannot be the same as the current password',
  passwordChanged: 'Your password has been successfully changed.',
  passwordExpiredHeading: 'Your password has expired',
  /** Our wording for the explanation under the expired heading (spec 1 §2 says only "with an explanation"). */
  passwordExpiredHelp: 'Passwords of external users expire 180 days after they were last set. Please choose a new password to continue.',
  mustChangePasswordHelp: 'Please choose a new password to continue.',
  oops: 'Oops, something went wrong',
  forgotPasswordSent: (email: string) => `If found in our system, an email will be sent to ${email} with additional instructions.`,
  forgotPasswordFailed: 'Oops, something went wrong. Please try again or contact Risk Management',
  resetTokenInvalid: 'Invalid reset token. This token has either expired, was already used, or cannot be found in our system.',
  resetFailed: 'Oops, something went wrong. Please try again or contact Risk Management for additional support.',
  resetSucceeded: 'Your password has been successfully reset!',
  emailInUse: 'The email address you provided is already in use.',
  // Proven email ownership (the spec is silent: our wording)
  confirmationLinkInvalid: 'This confirmation link has expired, was already used, or cannot be found. Sign in and ask for a new one.',
  emailConfirmed: 'Thank you: your email address is confirmed.',
  confirmationAlreadyDone: 'Your email address is already confirmed.',
  confirmationTooMany: 'We already sent several links in the last hour. Please check your inbox (and spam folder) or try again later.',
  currentPasswordForEmail: 'Please enter your current password to change your email address',
  useSingleSignOn: 'This account signs in with university single sign-on. Please use the Sign in with university single sign-on button.',
  registrationFailed: 'Oops, something went wrong',
  registered: 'You have successfully registered as an external user',
  profileUpdated: 'Your profile has been successfully updated',
  externalUserUpdated: 'This external user has been successfully updated',
  captchaRequired: 'Please verify that you are not a robot.',
  adminEmailInUse: 'Another admin is already using this address',
  removeAdminConfirm: 'Are you sure you want to remove administrative rights for this user?',
  searchParametersRequired: 'Search parameters are required.',
  searchFailed: 'Oops, something went wrong with this search. Please refresh your browser before trying again.',
  noExternalUsers: 'No external users matching this criteria.',
} as const;

/** Title carried by every page (spec 1 §1). */
export const PRODUCT_TITLE = 'Certificate of Insurance Request System';

/** "performed by" name of automated email audit entries (spec 1 §3, spec 2 §7.10). */
export const AUTOMATED_EMAIL_ACTOR = 'COI Automated Email System';

/** `"<template title>" email sent` — the audit text of an automated email. */
export const automatedEmailAuditText = (templateTitle: string): string => `"${templateTitle}" email sent`;

/**
 * The one window where an email may arrive twice: the mail server took it, and the worker died before marking it
 * sent. The retry sends it again with the same Message-ID and the audit row says so.
 */
const POSSIBLY_TWICE_SUFFIX = ' (possibly twice)';

/** The suffix for an email that `times` attempts handed to the mail server: '' once, ' (possibly twice)', ' (possibly 3 times)'. */
export const possiblyRepeatedSuffix = (times: number): string =>
  (times <= 1 ? '' : times === 2 ? POSSIBLY_TWICE_SUFFIX : ` (possibly ${times} times)`);

/** How an effect's failure reason begins when its letter, not its email, failed (the audit row and the problem list say it). */
export const LETTER_FAILED_PREFIX = 'the letter could not be generated: ';

export const emailFailedAuditText = (templateTitle: string, reason: string): string => `"${templateTitle}" email failed: ${reason}`;
/** An administrator sent a template by hand (Send Email), or pressed Send again on a failed one. */
export const emailRequestedAuditText = (templateTitle: string, again: boolean): string =>
  again ? `Sent the "${templateTitle}" email again` : `Sent the "${templateTitle}" email by hand`;

/** Person search (spec 1 §5 "Person search", spec 2 §8.3). */
export const PERSON_MESSAGES = {
  criteriaRequired: 'Search criteria is required.',
  noMatch: 'No individual found matching this criteria.',
  nameTogether: 'Last and first name must be given together.',
  /** spec 1 §5 / spec 2 §8.3: a date on a person form (birth, hire, termination) */
  invalidDate: 'Invalid date',
  /** spec 2 §8.3 "Person: failure" */
  failed: 'Oops, something went wrong.',
  failedAdvice: 'Navigate back to check the form and submit again, or refresh the page if problems continue.',
} as const;

/** The administrators' desk (spec 2 §8.3, spec 1 §5): search, export, FAQs, policies, templates, claims. */
export const DESK_MESSAGES = {
  searchParamsNeeded: 'Additional search parameters are needed.',
  searchFailed: 'Oops, something went wrong with this search. Please refresh your browser before trying again.',
  searchNone: 'No requests matching this criteria.',
  fromAfterTo: 'From date cannot be after To date',
  toBeforeFrom: 'To date cannot be before From date',
  exportFailed: 'Oops, something went wrong. Please refresh this page and try again.',
  noExports: 'No exports.',
  noFaqs: 'No frequently asked questions, yet.',
  faqDuplicate: 'This question is already in the list',
  faqDeleteConfirm: 'Are you sure you want to delete this FAQ?',
  policyDateFormat: 'Please format date as mm/dd/yyyy',
  policyDeleteConfirm: 'Are you sure you want to delete this policy record?',
  templatesLoadFailed: 'Oops, something went wrong retrieving existing templates. Please refresh this page to try again.',
  templateUpdateFailed: 'Oops, something went wrong. Please close and try the Update button again. If the error persists, contact support.',
  templateUpdated: 'This template has been successfully updated.',
  csvRequired: "Please choose a CSV file to upload using the 'Choose File' button.",
  csvUploadFailed: 'Oops, something went wrong; please refresh this page and try again.',
  claimsFailed: 'Oops, something went wrong. Please refresh this page and try again.',
  claimsNone: 'No claims found for this combination of names in the requested date range.',
  underConstruction: 'This page is under construction.',
} as const;
