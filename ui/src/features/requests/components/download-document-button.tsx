import { useState } from 'react';
import { saveBlob } from '../../../lib/download-blob';
import { UI_TEXT } from '../../../lib/ui-text';
import type { DocumentRecord } from '../../../types/api';
import { downloadDocument } from '../api/documents';

/** Fetches the file with the auth header and hands it to the browser. Legacy documents are unavailable. */
export function DownloadDocumentButton({ document }: { document: DocumentRecord }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (document.legacyId) return <span className="muted">{UI_TEXT.legacyUnavailable}</span>;

  async function download() {
    setBusy(true);
    setFailed(false);
    try {
      saveBlob(await downloadDocument(document.requestId, document.name), document.name);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="button button--small" disabled={busy} onClick={() => void download()}>
        Download
      </button>
      {failed && <span className="error-text" role="alert">{UI_TEXT.downloadFailed}</span>}
    </>
  );
}
