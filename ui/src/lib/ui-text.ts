/**
 * UI-only wording: labels, headings and notices the spec does not quote. Spec strings live in domain/messages.ts.
 */
export const UI_TEXT = {
  loading: 'Loading…',
  /** A page load's session check failed for load or an outage (not an expired session) and is asked again. */
  sessionCheckRetrying: 'The portal is not answering just now. You are still signed in; trying again…',
  saving: 'Saving...',
  saveSuccessful: 'Save Successful',
  draftSaving: 'Saving draft…',
  draftSaved: 'Draft saved',
  draftSaveFailed: 'The draft could not be saved. Your changes are kept on this page; try Save Draft again.',
  fixFields: 'Please correct the fields marked below.',
  requestNotFound: 'This request could not be found.',
  notEditable: 'This request can no longer be edited.',
  credentialingDocumentsExplanation:
    'Attach a release signed by the clinician and dated within the last 180 days, or a dated letter. ' +
    'Choose the file, describe it, then select Add a Document.',
  removeDocumentFailed: 'The document could not be removed.',
  uploadFailed: 'The document could not be uploaded.',
  downloadFailed: 'The document could not be downloaded.',
  legacyUnavailable: 'Unavailable',
  allRequestTypes: 'All Request Types',
  activityLoadFailed: 'The audit trail could not be loaded.',
  /** Shown for a 409 on a command (a stale version): the API's own wording (services/requests/request-workflow-client.ts). */
  staleRequest: 'This request changed since you opened it. Please reload the page and try again.',
  reloadPage: 'Reload the page',
  emailQueuedAgain: 'Queued: the email will be sent again.',
  sendAgain: 'Send again',
} as const;
