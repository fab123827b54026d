import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download-blob';
import { UI_TEXT } from '../../../lib/ui-text';
import type { DocumentRecord } from '../../../types/api';
import { downloadDocument } from '../api/documents';

/**
 * Fetches the file with the auth header and hands it to the browser. Legacy documents are unavailable: no button
 * for them, and a download the server answers 410 Gone becomes the same text instead of a broken link.
 */
export function DownloadDocumentButton({ document }: { document: DocumentRecord }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [gone, setGone] = useState(false);
  if (document.legacyId || gone) return <span className="muted">{UI_TEXT.legacyUnavailable}</span>;

  async function download() {
    setBusy(true);
    setFailed(false);
    try {
      saveBlob(await downloadDocument(document.requestId, document.name), document.name);
    } catch (error) {
      if (error instanceof ApiError && error.code === 410) setGone(true);
      else setFailed(true);
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
