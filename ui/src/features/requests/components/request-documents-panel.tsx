import { useState } from 'react';
import { documentsEditable } from '../../../../../domain';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import type { DocumentRecord, RequestRecord } from '../../../types/api';
import { useDeleteDocument } from '../api/documents';
import { AddDocumentForm } from './add-document-form';
import { DocumentsTable } from './documents-table';
import { EditDocumentDialog } from './edit-document-dialog';
import { GeneratePdfButtons } from './generate-pdf-buttons';

interface RequestDocumentsPanelProps {
  request: RequestRecord;
  isAdmin: boolean;
}

/**
 * Supporting Documents on the view page. Administrators add (optionally attached to the approval email), edit,
 * delete and regenerate the letter; the action column and the add form go once the request is approved or in a
 * terminal status. Requesters see the list (they change documents on the form while it is editable).
 */
export function RequestDocumentsPanel({ request, isAdmin }: RequestDocumentsPanelProps) {
  // The list an answer gave (a change here) until the request, which every change marks stale, is read again.
  const [answered, setAnswered] = useState<{ of: RequestRecord['documents']; documents: DocumentRecord[] } | null>(null);
  const documents = answered && answered.of === request.documents ? answered.documents : request.documents ?? [];
  const [editing, setEditing] = useState<DocumentRecord | null>(null);
  const editable = isAdmin && documentsEditable(request.status);
  const remove = useDeleteDocument();
  const changed = (next: DocumentRecord[]) => setAnswered({ of: request.documents, documents: next });

  return (
    <section className="details-section" aria-labelledby="documents-heading">
      <h2 id="documents-heading" className="details-section__title">Supporting Documents</h2>
      <DocumentsTable documents={documents} showAttachment={isAdmin} actions={editable ? (document) => (
        <>
          <button type="button" className="button button--small button--secondary" onClick={() => setEditing(document)}>Edit</button>
          <ConfirmButton label="Delete" className="button button--small button--danger-outline"
            message={`Are you sure you want to delete "${document.name}"?`} confirmLabel="Yes, please!"
            failureMessage="Oops, something went wrong. Please cancel and try again."
            action={() => remove.mutateAsync(document)} onDone={() => changed(documents.filter((d) => d.id !== document.id))} />
        </>
      ) : undefined} />
      {editable && (
        <AddDocumentForm documents={documents} allowAttach ensureRequestId={() => Promise.resolve(request.id)}
          onAdded={(document) => changed([...documents, document])} />
      )}
      {isAdmin && <GeneratePdfButtons request={request} onGenerated={changed} />}
      <EditDocumentDialog document={editing} onClose={() => setEditing(null)}
        onSaved={(saved) => { setEditing(null); changed(documents.map((d) => (d.id === saved.id ? saved : d))); }} />
    </section>
  );
}
