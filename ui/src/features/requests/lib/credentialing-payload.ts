/**
 * Between the request record (ISO dates) and the credentialing form as typed (mm/dd/yyyy), and from the form to
 * the payload the API takes (spec 2 §5: trimmed, straight apostrophes, dates at 11:00 UTC).
 */
import {
  cleanForm, dayToServerIso, parseUsDate, type CredentialingForm,
} from '../../../../../domain';
import type { RequestRecord } from '../../../types/api';
import { officeDate } from '../../../lib/format';

export const CREDENTIALING_FIELDS = [
  'lastName', 'firstName', 'middleInitial', 'altName', 'email', 'birthDate',
  'dateFrom', 'dateTo', 'providerType', 'reason', 'licensingState', 'facilityName', 'recipientEmail',
] as const satisfies readonly (keyof CredentialingForm)[];

const DATE_FIELDS = new Set<keyof CredentialingForm>(['birthDate', 'dateFrom', 'dateTo']);

export function recordToForm(record: RequestRecord | null): CredentialingForm {
  const form: CredentialingForm = {};
  if (!record) return form;
  for (const field of CREDENTIALING_FIELDS) {
    const value = record[field];
    if (value) form[field] = DATE_FIELDS.has(field) ? officeDate(value) : value;
  }
  return form;
}

/**
 * The payload of a save. Empty fields are dropped on create and sent as null on update (so clearing a field
 * clears it); a date not (yet) typed as a real mm/dd/yyyy day is left out rather than sent half-typed.
 */
export function formToPayload(form: CredentialingForm, mode: 'create' | 'update'): Record<string, string | null> {
  const cleaned: CredentialingForm = cleanForm({ ...form, middleInitial: form.middleInitial?.replace(/\./g, '') });
  const payload: Record<string, string | null> = {};
  for (const field of CREDENTIALING_FIELDS) {
    const value = cleaned[field];
    if (value === undefined) {
      if (mode === 'update') payload[field] = null;
    } else if (DATE_FIELDS.has(field)) {
      const day = parseUsDate(value);
      if (day) payload[field] = dayToServerIso(day);
    } else {
      payload[field] = value;
    }
  }
  return payload;
}
