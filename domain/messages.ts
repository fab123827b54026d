/** User-facing strings quoted verbatim from spec 2 §8.3 (and spec 1 §5). One place for every message. */
export const MESSAGES = {
  loginFailed: 'Login failed. Please confirm your email and password and try again.',
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
export const POSSIBLY_TWICE_SUFFIX = ' (possibly twice)';

/** Audit rows of an email that could not be sent; an administrator can send it again from the audit trail. */
export const EMAIL_FAILED_ACTIVITY = 'Email Failed';
export const emailFailedAuditText = (templateTitle: string, reason: string): string => `"${templateTitle}" email failed: ${reason}`;

/** Person search (spec 1 §5 "Person search", spec 2 §8.3). */
export const PERSON_MESSAGES = {
  criteriaRequired: 'Search criteria is required.',
  noMatch: 'No individual found matching this criteria.',
  nameTogether: 'Last and first name must be given together.',
} as const;
