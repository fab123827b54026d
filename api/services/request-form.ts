/** Converting between stored requests and the form the domain rules validate. */
import type { Request } from '../../db/entities';
import { cleanText, formatUsDate, type CredentialingForm } from '../../domain';
import { DATE_FIELDS, FORM_FIELD_NAMES } from '../schemas/request.schema';

/** Applies a (partial) form payload to a request: text cleaned per spec 2 §5, dates stored as given (11:00 UTC). */
export function applyFormFields(request: Request, body: Record<string, unknown>): void {
  const target = request as unknown as Record<string, unknown>;
  for (const field of FORM_FIELD_NAMES) {
    if (!(field in body)) continue;
    const value = body[field];
    if ((DATE_FIELDS as readonly string[]).includes(field)) target[field] = value ? new Date(value as string) : null;
    else if (field === 'middleInitial') target[field] = cleanText(value)?.replace(/\./g, '') || null;
    else if (field === 'email' || field === 'recipientEmail') target[field] = cleanText(value)?.toLowerCase() ?? null;
    else target[field] = cleanText(value) ?? null;
  }
}

/** The stored request as the typed form (dates back to mm/dd/yyyy), for the domain's submit validation. */
export function credentialingFormOf(request: Request): CredentialingForm {
  const date = (d: Date | null | undefined) => (d ? formatUsDate(d.toISOString()) : undefined);
  return {
    lastName: request.lastName ?? undefined,
    firstName: request.firstName ?? undefined,
    middleInitial: request.middleInitial ?? undefined,
    altName: request.altName ?? undefined,
    email: request.email ?? undefined,
    birthDate: date(request.birthDate),
    dateFrom: date(request.dateFrom),
    dateTo: date(request.dateTo),
    providerType: request.providerType ?? undefined,
    reason: request.reason ?? undefined,
    licensingState: request.licensingState ?? undefined,
    facilityName: request.facilityName ?? undefined,
    recipientEmail: request.recipientEmail ?? undefined,
    addlRecipients: request.addlRecipients ?? undefined,
  };
}
