import { useState, type FormEvent } from 'react';
import { REVOKE_NOTE_MAX_LENGTH, REVOKE_REASONS, revokeErrors, type RevokeReason } from '../../../../domain';
import { Modal } from '../../components/ui/modal';
import { SelectField, TextAreaField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api-client';
import { useRevokeIssuedLetter, type IssuedLetterItem } from './issued-letters-api';

interface RevokeLetterDialogProps {
  requestId: number;
  letter: IssuedLetterItem | null;
  onClose: () => void;
  onRevoked: () => void;
}

/**
 * An administrator revokes a Valid certificate or letter: a reason category (shown on the public page) and a note
 * (for the requester's email; required for "Other"). The workflow records it and emails the requester.
 */
export function RevokeLetterDialog({ requestId, letter, onClose, onRevoked }: RevokeLetterDialogProps) {
  const [reason, setReason] = useState<RevokeReason | ''>('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; note?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const revoke = useRevokeIssuedLetter(requestId);
  const busy = revoke.isPending;

  const close = () => { setReason(''); setNote(''); setErrors({}); setFailure(null); onClose(); };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!letter) return;
    const found = revokeErrors({ reason, note });
    setErrors(found);
    if (found.reason || found.note) return;
    setFailure(null);
    revoke.mutate({ code: letter.code, body: { reason: reason as RevokeReason, note: note.trim() || null } }, {
      onSuccess: () => { close(); onRevoked(); },
      onError: (error) => setFailure(error instanceof ApiError ? error.message : 'The certificate could not be revoked. Please try again.'),
    });
  }

  return (
    <Modal open={!!letter} title={`Revoke ${letter?.code ?? ''}`} onClose={close}>
      <form onSubmit={submit} noValidate>
        <p>The public page will show this {letter?.kind === 'claimHistoryLetter' ? 'letter' : 'certificate'} as Revoked with the reason below, and the requester is emailed.</p>
        <SelectField name="revokeReason" label="Reason" required options={REVOKE_REASONS} value={reason} error={errors.reason}
          onChange={(event) => setReason(event.target.value as RevokeReason | '')} />
        <TextAreaField name="revokeNote" label="Note for the requester" hint={reason === 'Other' ? 'Required for "Other".' : 'Optional; not shown on the public page.'}
          maxLength={REVOKE_NOTE_MAX_LENGTH} rows={3} value={note} error={errors.note} onChange={(event) => setNote(event.target.value)} />
        {failure && <p role="alert" className="error-text">{failure}</p>}
        <div className="button-row">
          <button type="submit" className="button button--danger" disabled={busy}>Revoke</button>
          <button type="button" className="button button--secondary" onClick={close} disabled={busy}>Cancel</button>
        </div>
      </form>
    </Modal>
  );
}
