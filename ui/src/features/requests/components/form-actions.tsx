import { UI_TEXT } from '../../../lib/ui-text';
import type { DraftSaveState } from '../machines/request-draft.machine';
import type { ReactNode } from 'react';

interface FormActionsProps {
  deleteButton: ReactNode;
  saveState: DraftSaveState;
  submitting: boolean;
  onSaveDraft: () => void;
  /** Admin edit of a submitted request: one Save button, no draft save */
  adminEdit?: boolean;
}

const SAVE_STATE_TEXT: Record<DraftSaveState, string> = {
  idle: '',
  saving: UI_TEXT.draftSaving,
  saved: UI_TEXT.draftSaved,
  error: UI_TEXT.draftSaveFailed,
};

/** Delete This Request (drafts), Save Draft, Submit. */
export function FormActions({ deleteButton, saveState, submitting, onSaveDraft, adminEdit }: FormActionsProps) {
  if (adminEdit) {
    return (
      <div className="form-actions">
        <p className="muted" role="status">{submitting ? 'Saving...' : ''}</p>
        <div className="button-row">
          <button type="submit" className="button" disabled={submitting}>{submitting ? 'Saving...' : 'Save'}</button>
        </div>
      </div>
    );
  }
  return (
    <div className="form-actions">
      <p className={saveState === 'error' ? 'error-text' : 'muted'} role="status">{SAVE_STATE_TEXT[saveState]}</p>
      <div className="button-row">
        {deleteButton}
        <button type="button" className="button button--secondary" disabled={submitting} onClick={onSaveDraft}>Save Draft</button>
        <button type="submit" className="button" disabled={submitting}>{submitting ? 'Submitting…' : 'Submit'}</button>
      </div>
    </div>
  );
}
