import { useState } from 'react';
import { mayRemoveDocument } from '../../../../../domain';
import { UI_TEXT } from '../../../lib/ui-text';
import type { DocumentRecord } from '../../../types/api';
import { deleteDocument } from '../api/documents';
import { AddDocumentForm } from './add-document-form';
import { DocumentsTable } from './documents-table';

interface SupportingDocumentsSectionProps {
  documents: readonly DocumentRecord[];
  onDocumentsChange: (documents: DocumentRecord[]) => void;
  ensureRequestId: () => Promise<number>;
  error?: string;
  disabled?: boolean;
  /** what the documents must show (defaults to the credentialing explanation) */
  explanation?: string;
  /** Administrators remove any document and may attach one to the approval email; requesters remove only their own. */
  isAdmin?: boolean;
}

export function SupportingDocumentsSection({ documents, onDocumentsChange, ensureRequestId, error, disabled, explanation, isAdmin = false }: SupportingDocumentsSectionProps) {
  const [removeError, setRemoveError] = useState<string | null>(null);

  async function remove(document: DocumentRecord) {
    setRemoveError(null);
    try {
      await deleteDocument(document.id);
      onDocumentsChange(documents.filter((d) => d.id !== document.id));
    } catch {
      setRemoveError(UI_TEXT.removeDocumentFailed);
    }
  }

  return (
    <fieldset className="form-section">
      <legend className="form-section__title">Supporting Documents</legend>
      <p>{explanation ?? UI_TEXT.credentialingDocumentsExplanation}</p>
      <DocumentsTable documents={documents} showAttachment={isAdmin} actions={disabled ? undefined : (document) => (
        mayRemoveDocument(isAdmin, document.origin ?? 'requester') ? (
          <button type="button" className="button button--small button--danger-outline" onClick={() => void remove(document)}
            aria-label={`Remove ${document.name}`}>
            Remove
          </button>
        ) : <span className="muted">Added by Risk Management</span>
      )} />
      {removeError && <p className="error-text" role="alert">{removeError}</p>}
      <AddDocumentForm documents={documents} ensureRequestId={ensureRequestId} documentsError={error} disabled={disabled}
        allowAttach={isAdmin} onAdded={(document) => onDocumentsChange([...documents, document])} />
    </fieldset>
  );
}
