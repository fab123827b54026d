import { useRef, useState, type MouseEvent } from 'react';
import { DOCUMENT_PICKER_ACCEPT, DOCUMENT_PICKER_CHOICES, DOCUMENT_PICKER_HINT, MESSAGES, TEXT_MAX } from '../../../../../domain';
import { FieldFrame, TextField, fieldId } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { chooseFile, pickerWithChoices } from '../../../lib/file-picker-choices';
import { UI_TEXT } from '../../../lib/ui-text';
import type { DocumentRecord } from '../../../types/api';
import { useAddDocument } from '../api/documents';

interface AddDocumentFormProps {
  documents: readonly DocumentRecord[];
  /** The draft's id; creates the draft when it does not exist yet. */
  ensureRequestId: () => Promise<number>;
  onAdded: (document: DocumentRecord) => void;
  /** The form's "documents" error (none attached at submit). */
  documentsError?: string;
  disabled?: boolean;
  /** Administrators may attach the document to the approval email (spec 1 §3 isAttachment). */
  allowAttach?: boolean;
}

/** Upload the file, then record it: POST /upload, then POST /documents (spec 2 §7.7). */
export function AddDocumentForm({ documents, ensureRequestId, onAdded, documentsError, disabled, allowAttach }: AddDocumentFormProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [description, setDescription] = useState('');
  const [attach, setAttach] = useState(false);
  const [errors, setErrors] = useState<{ file?: string; description?: string; form?: string }>({});
  const adding = useAddDocument();
  const busy = adding.isPending;
  /** After the picker with choices failed to open: the input's own picker from then on. */
  const ownPickerOnly = useRef(false);

  /**
   * Where the browser's picker offers choices, it opens on the spec's PNG and JPEG (spec 2 §9.1), with the other
   * documents and All files a choice away; elsewhere the input's own picker, which accepts every type, opens.
   */
  function openPicker(event: MouseEvent<HTMLInputElement>) {
    const picker = ownPickerOnly.current ? null : pickerWithChoices();
    if (!picker) return;
    event.preventDefault();
    chooseFile(picker, event.currentTarget, DOCUMENT_PICKER_CHOICES).then(
      (chosen) => { if (chosen) setFile(chosen); },
      () => { ownPickerOnly.current = true; },
    );
  }

  async function add() {
    const next = {
      file: !file ? MESSAGES.selectFile : documents.some((d) => d.name === file.name) ? MESSAGES.documentExists : undefined,
      description: description.trim() ? undefined : MESSAGES.required,
    };
    setErrors(next);
    if (next.file || next.description || !file) return;
    try {
      const { answer } = await adding.mutateAsync({
        ensureRequestId, file, description: description.trim(), ...(allowAttach ? { isAttachment: attach } : {}),
      });
      onAdded(answer);
      setFile(null);
      setDescription('');
      setAttach(false);
      if (fileInput.current) fileInput.current.value = '';
    } catch (error) {
      setErrors({ form: error instanceof ApiError ? error.message : UI_TEXT.uploadFailed });
    }
  }

  const fileError = errors.file ?? documentsError;
  return (
    <div className="add-document">
      <div className="form-grid">
        <FieldFrame name="file" label="File" error={fileError} hint={DOCUMENT_PICKER_HINT}>
          <input ref={fileInput} id={fieldId('file')} name="file" type="file" className="field__control"
            accept={DOCUMENT_PICKER_ACCEPT} aria-invalid={fileError ? true : undefined}
            aria-describedby={[`${fieldId('file')}-hint`, fileError ? `${fieldId('file')}-error` : ''].filter(Boolean).join(' ')}
            disabled={disabled || busy} onClick={openPicker} onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
        </FieldFrame>
        <TextField name="description" label="Description" maxLength={TEXT_MAX} autoComplete="off" required value={description}
          error={errors.description} disabled={disabled || busy} onChange={(event) => setDescription(event.target.value)} />
        {allowAttach && (
          <div className="field field--checkbox">
            <input id={fieldId('isAttachment')} name="isAttachment" type="checkbox" checked={attach} disabled={disabled || busy}
              onChange={(event) => setAttach(event.target.checked)} />
            <label htmlFor={fieldId('isAttachment')}>Attach to the approval email</label>
          </div>
        )}
      </div>
      {errors.form && <p className="error-text" role="alert">{errors.form}</p>}
      <div className="button-row">
        <button type="button" className="button button--secondary" disabled={disabled || busy} onClick={() => void add()}>
          {busy ? 'Uploading…' : 'Add a Document'}
        </button>
      </div>
    </div>
  );
}
