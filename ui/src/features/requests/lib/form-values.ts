/**
 * Between a stored request (ISO dates, booleans) and the values of a kind's form as typed (mm/dd/yyyy text), and
 * from the form to the API's payload (spec 2 §5: trimmed, straight apostrophes, dates at 11:00 UTC). Works for every
 * kind from its definition (domain/request-kinds.ts).
 */
import {
  dayToServerIso, fieldsOf, parseUsDate, type ConditionContext, type RequestFormValues,
  type RequestKindDefinition, isShown,
} from '../../../../../domain';
import { cleanFormValues } from '../../../../../domain/request-rules';
import type { RequestRecord } from '../../../types/api';
import { officeDate } from '../../../lib/format';

/**
 * A stored request's values as the form types them. `startingNewDraft`: the values a new draft starts from (a clone,
 * a follow-up's prefill), without the source's confirmations for its own documents (`perRequest`).
 */
export function recordToValues(
  record: RequestRecord | Record<string, unknown> | null, kind: RequestKindDefinition, options: { startingNewDraft?: boolean } = {},
): RequestFormValues {
  const values: RequestFormValues = {};
  if (!record) return withDefaultRole(values, kind);
  const source = record as Record<string, unknown>;
  for (const field of fieldsOf(kind)) {
    if (options.startingNewDraft && field.perRequest) continue;
    const value = source[field.name];
    if (value === null || value === undefined) continue;
    if (field.kind === 'date') values[field.name] = officeDate(String(value));
    else if (field.kind === 'checkbox') values[field.name] = Boolean(value);
    else values[field.name] = String(value);
  }
  return withDefaultRole(values, kind);
}

/** A kind that lets the requester choose the person's role starts from its own (drafts made before the choice too). */
function withDefaultRole(values: RequestFormValues, kind: RequestKindDefinition): RequestFormValues {
  const offersRoles = fieldsOf(kind).some((f) => f.name === 'personRole');
  return offersRoles && !values.personRole && kind.personRole ? { ...values, personRole: kind.personRole } : values;
}

/**
 * The payload of a save: the fields of the kind, hidden ones cleared (a choice changed away from Other drops its
 * text). Empty fields are left out on create and sent as null on update; a date not (yet) typed as a real day is
 * left out rather than sent half-typed.
 */
export function valuesToPayload(
  values: RequestFormValues, kind: RequestKindDefinition, mode: 'create' | 'update', ctx: ConditionContext & { isAdmin: boolean },
): Record<string, string | boolean | null> {
  const cleaned = cleanFormValues(values);
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
  return payload;
}
