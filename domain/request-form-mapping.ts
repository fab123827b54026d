/**
 * The one mapping between a stored request and a kind's form, driven by the kind's field definitions
 * (request-kinds.ts): the form types a date as mm/dd/yyyy (the day in the office's zone), a checkbox as a boolean and
 * everything else as text; a payload sends the form back cleaned (spec 2 §5: trimmed, straight apostrophes, dates at
 * 11:00 UTC of the day), hidden fields cleared. The UI's forms and the API's submit validation both use it, so a
 * value reads the same on either side.
 */
import type { Instant } from './office-time';
import { formatOfficeDate } from './office-time';
import { dayToServerIso, parseUsDate } from './request-dates';
import {
  fieldsOf, isShown, type ConditionContext, type FieldDefinition, type FormPayload, type RequestFormValues, type RequestKindDefinition,
} from './request-kinds';
import { cleanFormValues } from './request-rules';

interface RecordToFormOptions {
  /** the office's time zone: a stored date is shown as its day there */
  timeZone: string;
  /** the values a new draft starts from (a clone, a follow-up's prefill): not the source's confirmations for its own documents */
  startingNewDraft?: boolean;
}

/** A stored request's values (ISO strings or `Date`s for dates) as the given fields' form types them. */
export function recordToForm(
  record: Readonly<Record<string, unknown>> | null, fields: readonly FieldDefinition[], options: RecordToFormOptions,
): RequestFormValues {
  const values: RequestFormValues = {};
  if (!record) return values;
  for (const field of fields) {
    if (options.startingNewDraft && field.perRequest) continue;
    const value = record[field.name];
    if (value === null || value === undefined) continue;
    if (field.kind === 'date') values[field.name] = formatOfficeDate(value instanceof Date ? value : String(value) as Instant, options.timeZone);
    else if (field.kind === 'checkbox') values[field.name] = Boolean(value);
    else values[field.name] = String(value);
  }
  return values;
}

/** A kind's form from a stored request; a kind that lets the requester choose the person's role starts from its own. */
export function recordToKindForm(
  record: Readonly<Record<string, unknown>> | null, kind: RequestKindDefinition, options: RecordToFormOptions,
): RequestFormValues {
  const values = recordToForm(record, fieldsOf(kind), options);
  const offersRoles = fieldsOf(kind).some((f) => f.name === 'personRole');
  return offersRoles && !values.personRole && kind.personRole ? { ...values, personRole: kind.personRole } : values;
}

/**
 * The payload of a save: the fields of the kind, hidden ones cleared (a choice changed away from Other drops its
 * text). Empty fields are left out on create and sent as null on update; a date not (yet) typed as a real day is
 * left out rather than sent half-typed.
 */
export function formToPayload(
  values: RequestFormValues, kind: RequestKindDefinition, mode: 'create' | 'update', ctx: ConditionContext & { isAdmin: boolean },
): FormPayload {
  const cleaned = cleanFormValues(values);
  // filled by the kind's declared fields, each with its kind's value (a checkbox's boolean, every other kind's text)
  const payload: Record<string, string | boolean | null> = {};
  const seen = new Set<string>();
  for (const field of fieldsOf(kind)) {
    if (field.adminOnly && !ctx.isAdmin) continue;
    const shown = isShown(field, cleaned, ctx);
    if (seen.has(field.name) && !shown) continue; // a field declared twice (per choice): the shown one decides
    seen.add(field.name);
    const value = shown ? cleaned[field.name] : undefined;
    if (value === undefined) {
      if (mode === 'update') payload[field.name] = null;
    } else if (field.kind === 'date') {
      const day = parseUsDate(String(value));
      if (day) payload[field.name] = dayToServerIso(day);
    } else {
      payload[field.name] = value;
    }
  }
  return payload as FormPayload;
}
