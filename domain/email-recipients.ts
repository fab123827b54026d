/**
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

/** The addresses of an additional-recipients string that are not email addresses (empty when all are). */
export function invalidAddresses(addlRecipients: string | null | undefined): string[] {
  return (addlRecipients ?? '').split(/[\s;,]+/).map((e) => e.trim()).filter((e) => e && !isEmailAddress(e));
}
