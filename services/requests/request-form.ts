/** Converting between stored requests and the form the domain rules validate (every kind, domain/request-kinds.ts). */
import type { Request } from '../../db/entities';
import { ALL_FORM_FIELDS, cleanMiddleInitial, cleanText, DEFAULT_OFFICE_TIME_ZONE, type RequestFormValues } from '../../domain';
import { recordToForm } from '../../domain/request-form-mapping';
import { BOOLEAN_FIELDS, DATE_FIELDS, FORM_FIELD_NAMES, type RequestFormPayload } from '../../contract/request.schema';

const LOWERCASED = new Set<string>(ALL_FORM_FIELDS.filter((f) => f.kind === 'email').map((f) => f.name));

/** Applies a (partial) form payload to a request: text cleaned per spec 2 §5, dates stored as given (11:00 UTC). */
export function applyFormFields(request: Request, body: RequestFormPayload): void {
  const target = request as unknown as Record<string, unknown>;
  for (const field of FORM_FIELD_NAMES) {
    if (!(field in body)) continue;
    const value = body[field];
    if (DATE_FIELDS.includes(field)) target[field] = typeof value === 'string' && value ? new Date(value) : null;
    else if (BOOLEAN_FIELDS.includes(field)) target[field] = typeof value === 'boolean' ? value : null;
    else if (field === 'middleInitial') target[field] = cleanMiddleInitial(value) ?? null;
    else if (LOWERCASED.has(field)) target[field] = cleanText(value)?.toLowerCase() ?? null;
    else target[field] = cleanText(value) ?? null;
  }
}

/** The stored request as the typed form (dates back to mm/dd/yyyy), for the domain's submit validation. */
export const formOf = (request: Request): RequestFormValues =>
  recordToForm(request as unknown as Record<string, unknown>, ALL_FORM_FIELDS, { timeZone: DEFAULT_OFFICE_TIME_ZONE });

/**
 * Form values a clone copies (everything typed; no documents, status, dates of the request, admin fields, or a
 * confirmation that vouched for the source's own documents).
 */
export function cloneFormFields(source: Request): RequestFormPayload {
  const values = source as unknown as Record<string, unknown>;
  const out: Record<string, string | boolean> = {};
  for (const field of ALL_FORM_FIELDS) {
    if (field.adminOnly || field.perRequest) continue;
    const value = values[field.name];
    if (value instanceof Date) out[field.name] = value.toISOString();
    else if (typeof value === 'string' || typeof value === 'boolean') out[field.name] = value;
  }
  // the declared fields, each with its stored type: the entity's columns follow the same declarations
  return out as RequestFormPayload;
}
