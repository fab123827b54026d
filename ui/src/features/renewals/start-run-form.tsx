import { useState, type FormEvent } from 'react';
import { addDays, RENEWAL_MESSAGES, type RenewalMode } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { ApiError } from '../../lib/api-error';
import { officeToday } from '../../lib/office';
import { MODE_LABELS } from './renewal-labels';
import { useStartRun, type RenewalRun, type StartRun } from './renewals-api';

interface StartRunFormProps {
  /** what the run renews: the policy year and window the listed candidates were computed on */
  target: Pick<StartRun, 'policyYearId' | 'from' | 'to'> | null;
  /** undefined: every renewable certificate of the window (the list shows only part of them) */
  requestIds: number[] | undefined;
  selectedCount: number;
  /** why no run can start now, or null */
  blocked: string | null;
  onStarted: (run: RenewalRun) => void;
}

const count = (n: number) => (n === 1 ? '1 certificate' : `${n.toLocaleString('en-US')} certificates`);

/** Starts a run: renew at once, or first ask each requester whether the certificate is still needed. */
export function StartRunForm({ target, requestIds, selectedCount, blocked, onStarted }: StartRunFormProps) {
  const [mode, setMode] = useState<RenewalMode>('renew');
  const [answerBy, setAnswerBy] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const start = useStartRun();
  const disabled = !target || !!blocked || selectedCount === 0 || start.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (disabled || !target) return;
    if (mode === 'ask' && !answerBy) { setErrors({ answerBy: RENEWAL_MESSAGES.answerByRequired }); return; }
    setErrors({});
    try {
      onStarted(await start.mutateAsync({ ...target, mode, ...(mode === 'ask' ? { answerBy } : {}), ...(requestIds ? { requestIds } : {}) }));
    } catch (error) {
      const fields = error instanceof ApiError ? error.errors : {};
      setErrors(fields);
      // A message the form shows beside its field is not repeated above the button.
      if (!fields.answerBy) setFailure([error instanceof Error ? error.message : String(error), ...Object.values(fields)].filter(uniqueText).join(' '));
    }
  }

  return (
    <form className="card renewal-start" onSubmit={submit} noValidate aria-labelledby="renewal-start-heading">
      <h2 id="renewal-start-heading">Start a renewal run</h2>
      <fieldset className="renewal-modes">
        <legend className="field__label">How</legend>
        <div className="radio-row">
          {(['renew', 'ask'] as const).map((m) => (
            <label key={m} className="radio">
              <input type="radio" name="renewal-mode" value={m} checked={mode === m} onChange={() => setMode(m)} /> {MODE_LABELS[m]}
            </label>
          ))}
        </div>
      </fieldset>
      {mode === 'ask' && (
        <div className={`field renewal-answer-by${errors.answerBy ? ' field--invalid' : ''}`}>
          <label htmlFor="renewal-answer-by" className="field__label">Answer by</label>
          <input id="renewal-answer-by" type="date" className="field__control" value={answerBy} min={addDays(officeToday(), 1)}
            aria-invalid={errors.answerBy ? true : undefined} aria-describedby={`renewal-answer-by-hint${errors.answerBy ? ' renewal-answer-by-error' : ''}`}
            onChange={(e) => setAnswerBy(e.target.value)} />
          <p id="renewal-answer-by-hint" className="field__hint">
            Each requester is emailed &quot;Do you still need this certificate?&quot;. Those who say no, or do not answer by this date, are not renewed.
          </p>
          {errors.answerBy && <p id="renewal-answer-by-error" className="error-text">{errors.answerBy}</p>}
        </div>
      )}
      {failure && <Alert kind="error">{failure}</Alert>}
      <div className="button-row">
        <button type="submit" className="button" disabled={disabled} aria-describedby="renewal-start-count">Start renewal run</button>
        <span id="renewal-start-count" className="muted">{blocked ?? `${count(selectedCount)} selected`}</span>
      </div>
    </form>
  );
}

function uniqueText(text: string, index: number, all: string[]) {
  return !!text && all.indexOf(text) === index;
}
