import { useEffect, useState, type FormEvent } from 'react';
import {
  INTERNAL_NOTES_MAX, MESSAGES, NO_POLICY_YEAR_REASON, parseUsDate, SIGNED_RELEASE_DATE_LABEL, signedReleaseDateError, STATUS,
  type RequestStatus,
} from '../../../../../domain';
import type { PatchRequestBody } from '../../../../../contract/request.schema';
import { isStaleRequest, StaleRequestAlert } from '../../../components/stale-request-alert';
import { fieldId, TextField } from '../../../components/ui/form-field';
import { useRequestCommand } from '../../../lib/request-api';
import { UI_TEXT } from '../../../lib/ui-text';
import type { RequestRecord } from '../../../types/api';
import { useManageChoices } from '../hooks/use-manage-choices';
import { officeDate } from '../../../lib/format';
import { officeToday } from '../../../lib/office';

interface ManageRequestPanelProps {
  request: RequestRecord;
  /** After a save (the page's copy of the request already carries the answer, its new version included). */
  onSaved: () => void;
}

/** Admin: status change, verification and internal notes, or Reopen for a finished request (spec 1 §2, §4). */
export function ManageRequestPanel({ request, onSaved }: ManageRequestPanelProps) {
  const [chosen, setChosen] = useState<RequestStatus>(request.status);
  const [verified, setVerified] = useState(Boolean(request.verified));
  const [notes, setNotes] = useState(request.internalNotes ?? '');
  // Claim history requests: the signed release's date, recorded when verifying; the request goes back to the
  // requester when it is 180 days old (domain/request-clocks.ts).
  const hasRelease = request.requestType === 'credentialing' && Boolean(request.submitDate);
  const [releaseDate, setReleaseDate] = useState(officeDate(request.signedReleaseDate));
  const [releaseError, setReleaseError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = useRequestCommand(request.id);
  const manage = useManageChoices(request, chosen, verified);

  // A status written elsewhere (the workflow, a reopen) becomes the selected one.
  useEffect(() => setChosen(request.status), [request.status]);
  useEffect(() => setVerified(Boolean(request.verified)), [request.verified]);
  useEffect(() => setReleaseDate(officeDate(request.signedReleaseDate)), [request.signedReleaseDate]);

  function run(changes: PatchRequestBody) {
    setRefusal(null);
    // Made on the version this page shows: a request changed meanwhile (another admin, a reopen) answers 409.
    save.mutate({ changes, version: request.version }, { onSuccess: onSaved });
  }

  /** The release date as the API takes it (`yyyy-mm-dd`), `undefined` when unchanged, or null after showing an error. */
  function releaseChange(): string | undefined | null {
    setReleaseError(null);
    if (!hasRelease || !releaseDate.trim() || releaseDate.trim() === officeDate(request.signedReleaseDate)) return undefined;
    const day = parseUsDate(releaseDate);
    // "Today" at the office (the server checks again with the configured time zone).
    const error = day ? signedReleaseDateError(day, officeToday()) : MESSAGES.dateInputInvalid;
    if (error) { setReleaseError(error); return null; }
    return day!;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!manage.canSave) {
      setRefusal(manage.verificationMissing ? MESSAGES.verificationRequired : MESSAGES.adminSaveFailed);
      return;
    }
    const signedReleaseDate = releaseChange();
    if (signedReleaseDate === null) return;
    run({
      ...(manage.statusChanged ? { status: chosen } : {}), verified, internalNotes: notes,
      ...(signedReleaseDate ? { signedReleaseDate } : {}),
    });
  }

  const error = save.error;
  const stale = isStaleRequest(error);
  const serverReleaseError = error?.errors?.signedReleaseDate ?? null;
  const message = refusal
    ?? (error && !stale && !serverReleaseError ? (error.code === 400 ? error.message : MESSAGES.adminSaveFailed) : null)
    ?? (manage.verificationMissing ? MESSAGES.verificationRequired : null);
  const busy = save.isPending;

  return (
    <section className="card manage-panel" aria-labelledby="manage-request-heading">
      <h2 id="manage-request-heading">Manage Request</h2>
      {manage.canReopen ? (
        <div className="manage-panel__finished">
          <p>Status: {request.status}</p>
          {request.internalNotes && <p className="prewrap"><strong>Internal Notes:</strong> {request.internalNotes}</p>}
          <button type="button" className="button" disabled={busy} onClick={() => run({ status: STATUS.draft })}>
            Reopen Request
          </button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate>
          <div className="form-grid">
            <div className="field">
              <label htmlFor={fieldId('status')} className="field__label">Status</label>
              <select id={fieldId('status')} name="status" className="field__control" value={chosen} disabled={busy || manage.choices.length === 0}
                onChange={(event) => { setRefusal(null); setChosen(event.target.value as RequestStatus); }}>
                <option value={request.status}>{request.status}</option>
                {manage.choices.map((status) => <option key={status} value={status}>{status}</option>)}
              </select>
            </div>
            <div className="field field--checkbox">
              <input id={fieldId('verified')} name="verified" type="checkbox" checked={verified} disabled={busy}
                onChange={(event) => { setRefusal(null); setVerified(event.target.checked); }} />
              <label htmlFor={fieldId('verified')}>Verified</label>
            </div>
            {hasRelease && (
              <TextField name="signedReleaseDate" label={SIGNED_RELEASE_DATE_LABEL} value={releaseDate} disabled={busy}
                inputMode="numeric" autoComplete="off" placeholder="mm/dd/yyyy"
                hint="Date on the signed release (mm/dd/yyyy), within the last 180 days. When it is older the request returns to the requester."
                error={releaseError ?? serverReleaseError ?? undefined}
                onChange={(event) => { setReleaseError(null); setReleaseDate(event.target.value); }} />
            )}
          </div>
          <div className="field">
            <label htmlFor={fieldId('internalNotes')} className="field__label">Internal Notes</label>
            <textarea id={fieldId('internalNotes')} name="internalNotes" className="field__control" rows={4}
              maxLength={INTERNAL_NOTES_MAX} value={notes} disabled={busy} aria-describedby={`${fieldId('internalNotes')}-count`}
              onChange={(event) => setNotes(event.target.value)} />
            <p id={`${fieldId('internalNotes')}-count`} className="field__hint">{INTERNAL_NOTES_MAX - notes.length} characters remaining</p>
          </div>
          <div className="button-row">
            <button type="submit" className="button" disabled={busy}>Save</button>
          </div>
        </form>
      )}
      {message && <p className="error-text" role="alert">{message}</p>}
      {error?.reason === NO_POLICY_YEAR_REASON && manage.choices.includes(STATUS.pendingNewPolicyYear) && (
        // The refusal names the way out; this is it, one press: the request waits for a policy year covering it.
        <div className="button-row">
          <button type="button" className="button button--secondary" disabled={busy}
            onClick={() => { setChosen(STATUS.pendingNewPolicyYear); run({ status: STATUS.pendingNewPolicyYear, verified, internalNotes: notes }); }}>
            Set to {STATUS.pendingNewPolicyYear}
          </button>
        </div>
      )}
      {stale && <StaleRequestAlert />}
      <p role="status" className="muted manage-panel__status">
        {busy ? UI_TEXT.saving : save.isSuccess ? UI_TEXT.saveSuccessful : ''}
      </p>
    </section>
  );
}
