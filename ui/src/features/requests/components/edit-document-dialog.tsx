import { useState, type FormEvent } from 'react';
import { MESSAGES, TEXT_MAX } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { TextField, fieldId } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { ApiError } from '../../../lib/api-client';
import type { DocumentRecord } from '../../../types/api';
import { useEditDocument } from '../api/documents';

interface EditDocumentDialogProps {
  document: DocumentRecord | null;
  onClose: () => void;
  onSaved: (document: DocumentRecord) => void;
}

/** Administrators: rename, redescribe, and attach to the approval email (PATCH documents/:id). */
export function EditDocumentDialog({ document, onClose, onSaved }: EditDocumentDialogProps) {
  return (
    <Modal open={!!document} title="Edit Document" onClose={onClose}>
      {document && <EditDocumentForm key={document.id} document={document} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function EditDocumentForm({ document, onClose, onSaved }: { document: DocumentRecord; onClose: () => void; onSaved: (d: DocumentRecord) => void }) {
  const [filename, setFilename] = useState(document.name);
  const [description, setDescription] = useState(document.description ?? '');
  const [attach, setAttach] = useState(!!document.isAttachment);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const edit = useEditDocument();
  const busy = edit.isPending;

  function save(event: FormEvent) {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (!filename.trim()) next.filename = MESSAGES.required;
    if (!description.trim()) next.description = MESSAGES.required;
    setErrors(next);
    setFailure(null);
    if (Object.keys(next).length) return;
    edit.mutate({ document, changes: { filename: filename.trim(), description: description.trim(), isAttachment: attach } }, {
      onSuccess: ({ answer }) => onSaved(answer),
      onError: (error) => {
        if (error instanceof ApiError && error.code === 409) setErrors({ filename: MESSAGES.documentExists });
        else if (error instanceof ApiError && error.hasFieldErrors) setErrors(error.errors);
        else setFailure(error instanceof ApiError && error.code < 500 ? error.message : MESSAGES.genericPageError);
      },
    });
  }

  return (
    <form className="discussion-form" onSubmit={save} noValidate>
      {failure && <Alert kind="error">{failure}</Alert>}
      <TextField name="filename" label="Name" required maxLength={TEXT_MAX} value={filename} error={errors.filename}
        onChange={(e) => setFilename(e.target.value)} />
      <TextField name="editDescription" label="Description" required maxLength={TEXT_MAX} value={description} error={errors.description}
        onChange={(e) => setDescription(e.target.value)} />
      <div className="field field--checkbox">
        <input id={fieldId('editIsAttachment')} name="editIsAttachment" type="checkbox" checked={attach} onChange={(e) => setAttach(e.target.checked)} />
        <label htmlFor={fieldId('editIsAttachment')}>Attach to the approval email</label>
      </div>
      <div className="button-row">
        <button type="submit" className="button" disabled={busy}>{busy ? 'Saving...' : 'Save'}</button>
        <button type="button" className="button button--secondary" onClick={onClose}>Cancel</button>
      </div>
    </form>
  );
}
