/**
 * The forms' side of the record ↔ form mapping (domain/request-form-mapping.ts), with the office's time zone the
 * browser knows.
 */
import type { RequestFormValues, RequestKindDefinition } from '../../../../../domain';
import { recordToKindForm } from '../../../../../domain/request-form-mapping';
import type { RequestRecord } from '../../../types/api';
import { officeTimeZone } from '../../../lib/office';

export { formToPayload as valuesToPayload } from '../../../../../domain/request-form-mapping';

/**
 * A stored request's values as the form types them. `startingNewDraft`: the values a new draft starts from (a clone,
 * a follow-up's prefill), without the source's confirmations for its own documents (`perRequest`).
 */
export const recordToValues = (
  record: RequestRecord | Readonly<Record<string, unknown>> | null, kind: RequestKindDefinition, options: { startingNewDraft?: boolean } = {},
): RequestFormValues => recordToKindForm(record, kind, { ...options, timeZone: officeTimeZone() });
