import { REQUEST_RETURNED_TO_REVIEW } from './wake-ups';

/**
 * WHO RECEIVES EACH AUTOMATED EMAIL (the one place; docs/ARCHITECTURE.md points here):
 * - status-change emails (Submission Confirmation, Additional Information Needed, the Pending ones, approvals with
 *   their letter or certificate, denials) and any template an administrator sends by hand: `emailRecipients`.
 * - A resubmission also sends the requester Submission Confirmation (domain/notification-template.ts
 *   `requesterConfirmationFor`), a status-change email like the others: `emailRecipients`.
 * - Request Resubmission (a requester submits again from Pending Additional Information), Request Escalation (a
 *   request not reviewed in time, domain/request-clocks.ts) and Request Returned to Review (a waiting request woke
 *   by itself, domain/wake-ups.ts): the administrators' (risk-management) mailbox only, `statusEmailRecipients`.
 * - The clocks' Reminder and automatic close emails: like status-change emails, `emailRecipients`.
 * - Request Discussion: `discussionRecipients`: the other side of the conversation.
 * - A renewed certificate (domain/renewals.ts): `renewalRecipients`: those of `emailRecipients` and the certificate
 *   holder's address when the form gave one (the holder is who refuses an expired certificate).
 * - The renewal question ("Do you still need this certificate?"): the requester only (`emailRecipients`' first).
 * - Email failures are not emailed: they become an `Email Failed` audit row the administrators see.
 *
 * Who receives a request's emails (spec 2 §7.9): the requester first, then the recipient named on the form, then
 * the additional recipients, whose string is split on spaces, semicolons and commas. Duplicates are dropped.
 */
export function emailRecipients(request: { requesterEmail?: string | null; recipientEmail?: string | null; addlRecipients?: string | null }): string[] {
  const all = [
    request.requesterEmail ?? '',
    request.recipientEmail ?? '',
    ...(request.addlRecipients ?? '').split(/[\s;,]+/),
  ].map((e) => e.trim().toLowerCase()).filter(Boolean);
  return [...new Set(all)];
}

/** A standard email address pattern (spec 1 §5 "Email must match a standard pattern"). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmailAddress = (value: string): boolean => EMAIL_PATTERN.test(value);

/**
 * An email an administrator sends by hand (spec 2 §7.9): the requester first, then the additional recipients typed
 * in the dialog, split on spaces, semicolons and commas; each must be an email address. Duplicates are dropped.
 */
export function onDemandRecipients(requesterEmail: string | null | undefined, additional: string | null | undefined): { recipients: string[]; invalid: string[] } {
  const extra = (additional ?? '').split(/[\s;,]+/).map((e) => e.trim()).filter(Boolean);
  const invalid = extra.filter((e) => !isEmailAddress(e));
  const all = [requesterEmail ?? '', ...extra.filter(isEmailAddress)].map((e) => e.trim().toLowerCase()).filter(Boolean);
  return { recipients: [...new Set(all)], invalid };
}

/** Templates a status change sends to the administrators' mailbox instead of the requester. */
export const ADMINISTRATOR_TEMPLATES: readonly string[] = ['Request Resubmission', 'Request Escalation', REQUEST_RETURNED_TO_REVIEW];

/** Recipients of a status-change email: the administrators' mailbox for ADMINISTRATOR_TEMPLATES, else `emailRecipients`. */
export function statusEmailRecipients(templateTitle: string, request: Parameters<typeof emailRecipients>[0], riskManagementMailbox: string): string[] {
  return ADMINISTRATOR_TEMPLATES.includes(templateTitle) ? [riskManagementMailbox.trim().toLowerCase()] : emailRecipients(request);
}

/**
 * Request Discussion goes to the other side: when an administrator writes, to the requester and the recipients
 * (`emailRecipients`); when a requester writes, to the risk-management mailbox (config `RISK_MANAGEMENT_EMAIL`).
 */
export function discussionRecipients(
  request: Parameters<typeof emailRecipients>[0], fromAdmin: boolean, riskManagementMailbox: string,
): string[] {
  return fromAdmin ? emailRecipients(request) : [riskManagementMailbox.trim().toLowerCase()];
}

/** A renewed certificate goes to the request's recipients and to the certificate holder (domain/renewals.ts). */
export function renewalRecipients(request: Parameters<typeof emailRecipients>[0] & { certificateHolderEmail?: string | null }): string[] {
  const holder = request.certificateHolderEmail?.trim().toLowerCase();
  const all = emailRecipients(request);
  return holder && isEmailAddress(holder) && !all.includes(holder) ? [...all, holder] : all;
}
