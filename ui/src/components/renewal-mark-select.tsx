/**
 * A certificate request's renewal mark (domain/renewals.ts), where the office sets it: the Renewals list and the
 * request's own page.
 */
import { RENEWAL_PREFERENCE_LABELS, RENEWAL_PREFERENCES, type RenewalPreference } from '../../../domain';
import { api } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';
import { useInvalidatingMutation } from '../lib/use-invalidating-mutation';

/** A request's mark: renews automatically, never, or (null) as the rules decide. */
export const useSetPreference = () => useInvalidatingMutation({
  mutationFn: ({ requestId, preference }: { requestId: number; preference: RenewalPreference | null }) =>
    api.put<{ preference: RenewalPreference | null }>(`/requests/${requestId}/renewal-preference`, { preference }),
  // The Renewals list judges again; the request's own page shows the mark and its audit row.
  invalidates: (_answer, { requestId }) => [queryKeys.renewals.candidatesAll, queryKeys.requests.issuedLetters(requestId), queryKeys.requests.activity(requestId)],
});

const RULES = 'Decided by the rules';

interface PreferenceSelectProps {
  requestId: number;
  /** named in the select's accessible name in a table of requests; null where a visible label names it (`id`) */
  requestNumber: number | null;
  preference: RenewalPreference | null;
  id?: string;
}

/** A request's renewal mark; saved as it is chosen, after which the verdicts are read again (the mark changes them). */
export function PreferenceSelect({ requestId, requestNumber, preference, id }: PreferenceSelectProps) {
  const save = useSetPreference();
  const errorId = `renewal-mark-error-${requestId}`;
  // While saving, the choice made shows (the row's own value comes back with the candidates read again). The select
  // stays enabled: disabling the focused control would drop a keyboard user's place in the table.
  const shown = save.isPending ? save.variables.preference : preference;
  return (
    <>
      <select id={id} className="field__control renewal-mark" value={shown ?? ''} aria-busy={save.isPending || undefined}
        aria-label={requestNumber === null ? undefined : `Renewal mark of request ${requestNumber}`}
        aria-invalid={save.isError || undefined} aria-describedby={save.isError ? errorId : undefined}
        onChange={(e) => save.mutate({ requestId, preference: (e.target.value || null) as RenewalPreference | null })}>
        <option value="">{RULES}</option>
        {RENEWAL_PREFERENCES.map((p) => <option key={p} value={p}>{RENEWAL_PREFERENCE_LABELS[p]}</option>)}
      </select>
      {save.isError && <p id={errorId} className="error-text" role="alert">{save.error.message}</p>}
    </>
  );
}
