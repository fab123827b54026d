import { useState } from 'react';
import { mayGenerateLetter, MESSAGES } from '../../../../../domain';
import { Modal } from '../../../components/ui/modal';
import { ApiError } from '../../../lib/api-client';
import type { DocumentRecord, RequestRecord } from '../../../types/api';
import { useGeneratePdfs } from '../api/documents';

/**
 * Administrators regenerate an approved request's letter or certificate (generate-pdfs), and may email it. The answer is the document list; a failure opens an error dialog (spec 2 §8.3).
 */
export function GeneratePdfButtons({ request, onGenerated }: { request: RequestRecord; onGenerated: (documents: DocumentRecord[]) => void }) {
  const generating = useGeneratePdfs();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  if (!mayGenerateLetter(request.status)) return null;
  const busy = generating.isPending ? (generating.variables.sendWithEmail ? 'email' : 'letter') : null;

  function generate(sendWithEmail: boolean) {
    setDone(null);
    generating.mutate({ requestId: request.id, sendWithEmail }, {
      onSuccess: ({ answer }) => {
        onGenerated(answer);
        setDone(sendWithEmail ? 'The PDF was generated and emailed.' : 'The PDF was generated.');
      },
      onError: (error) => setFailure(error instanceof ApiError && error.message ? error.message : MESSAGES.genericPageError),
    });
  }

  return (
    <div className="button-row">
      <button type="button" className="button button--secondary" disabled={!!busy} onClick={() => generate(false)}>
        {busy === 'letter' ? 'Generating...' : 'Generate PDF'}
      </button>
      <button type="button" className="button button--secondary" disabled={!!busy} onClick={() => generate(true)}>
        {busy === 'email' ? 'Generating...' : 'Generate and Email PDF'}
      </button>
      <span role="status">{done}</span>
      <Modal open={!!failure} title="PDF Generation Failed" onClose={() => setFailure(null)}>
        <p>The PDF could not be generated. Please try again; if it keeps failing, contact support.</p>
        {failure && <p className="error-text">{failure}</p>}
        <div className="button-row">
          <button type="button" className="button" onClick={() => setFailure(null)}>Close</button>
        </div>
      </Modal>
    </div>
  );
}
