/**
 * The kinds of audit row (`request_activity.activity_type`, the audit tab's "Activity Type"), every one of them, here
 * only: the writers (activities, services), the readers (the reports, the email problems, the UI's Send again) and
 * the SQL functions the migrations create (db/sql-functions.ts) all take them from this file. Workflow code imports
 * this file directly, not the barrel.
 *
 * The stored text is what people read in the audit tab and what rows already written say: a kind is never renamed
 * here without a migration that renames the rows.
 */

/** A requester's submission (the first one, or a resubmission): it records the status entered. */
export const SUBMISSION_ACTIVITY = 'Submission';
/** Any other change of status, by a person or a clock: it records the status left and the status entered. */
export const STATUS_CHANGE_ACTIVITY = 'Status Change';
/** An email sent (automated, or asked for by an administrator). */
export const EMAIL_ACTIVITY = 'Email';
/** An email that could not be sent, or that some recipients refused; an administrator can send it again. */
export const EMAIL_FAILED_ACTIVITY = 'Email Failed';
/** A document added, removed, generated, or a letter that could not be generated. */
export const DOCUMENT_ACTIVITY = 'Document';
/** A discussion message posted or deleted. */
export const DISCUSSION_ACTIVITY = 'Discussion';
/** A reminder the requester's clock sent (domain/request-clocks.ts). */
export const REMINDER_ACTIVITY = 'Reminder';
/** An escalation the office's clock sent (domain/request-clocks.ts). */
export const ESCALATION_ACTIVITY = 'Escalation';
/** An administrator's in-place edit of a submitted request (domain/request-edit.ts). */
export const FIELD_EDIT_ACTIVITY = 'Field Edit';
/** An administrator recorded the date of a signed release. */
export const SIGNED_RELEASE_ACTIVITY = 'Signed Release';
/** An issued letter was revoked (domain/issued-letters.ts). */
export const CERTIFICATE_REVOKED_ACTIVITY = 'Certificate Revoked';
/** A CS-STARS upload touched the claims an issued claim-history letter covers (domain/stale-letters.ts). */
export const STALE_LETTER_ACTIVITY_TYPE = 'Letter May Be Out of Date';

/** A certificate renewed for a new policy year, or a renewal question asked and answered (domain/renewals.ts). */
export const RENEWAL_ACTIVITY = 'Renewal';

export const AUDIT_KINDS = [
  SUBMISSION_ACTIVITY, STATUS_CHANGE_ACTIVITY, EMAIL_ACTIVITY, EMAIL_FAILED_ACTIVITY, DOCUMENT_ACTIVITY, DISCUSSION_ACTIVITY,
  REMINDER_ACTIVITY, ESCALATION_ACTIVITY, FIELD_EDIT_ACTIVITY, SIGNED_RELEASE_ACTIVITY, CERTIFICATE_REVOKED_ACTIVITY,
  STALE_LETTER_ACTIVITY_TYPE, RENEWAL_ACTIVITY,
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/**
 * What an audit row linked to an effect (`request_activity.effect_id`) says of it (`effect_outcome`):
 * - failed: the effect failed for good (its last attempt; nobody got the email). The email problems list reads it,
 *   and the administrator sends it again from it.
 * - refused: the email went out, but the mail server refused some of its recipients for good; they can be sent it
 *   again from this row, and the effect itself is sent, so it is no problem of the list.
 * A row has an outcome exactly when it names an effect (a check constraint, Migration20261201100001).
 */
export const EFFECT_OUTCOME = { failed: 'failed', refused: 'refused' } as const;
export type EffectOutcome = (typeof EFFECT_OUTCOME)[keyof typeof EFFECT_OUTCOME];
export const EFFECT_OUTCOMES = Object.values(EFFECT_OUTCOME) as EffectOutcome[];
