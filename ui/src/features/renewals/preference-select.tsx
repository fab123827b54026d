import { RENEWAL_PREFERENCE_LABELS, RENEWAL_PREFERENCES, type RenewalPreference } from '../../../../domain';
import { useSetPreference } from './renewals-api';

const RULES = 'Decided by the rules';

interface PreferenceSelectProps {
  requestId: number;
  requestNumber: number;
  preference: RenewalPreference | null;
}

/** A request's renewal mark; saved as it is chosen, after which the verdicts are read again (the mark changes them). */
export function PreferenceSelect({ requestId, requestNumber, preference }: PreferenceSelectProps) {
  const save = useSetPreference();
  const errorId = `renewal-mark-error-${requestId}`;
  // While saving, the choice made shows (the row's own value comes back with the candidates read again). The select
  // stays enabled: disabling the focused control would drop a keyboard user's place in the table.
  const shown = save.isPending ? save.variables.preference : preference;
  return (
    <>
      <select className="field__control renewal-mark" value={shown ?? ''} aria-busy={save.isPending || undefined} aria-label={`Renewal mark of request ${requestNumber}`}
        aria-invalid={save.isError || undefined} aria-describedby={save.isError ? errorId : undefined}
        onChange={(e) => save.mutate({ requestId, preference: (e.target.value || null) as RenewalPreference | null })}>
        <option value="">{RULES}</option>
        {RENEWAL_PREFERENCES.map((p) => <option key={p} value={p}>{RENEWAL_PREFERENCE_LABELS[p]}</option>)}
      </select>
      {save.isError && <p id={errorId} className="error-text" role="alert">{save.error.message}</p>}
    </>
  );
}
