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
