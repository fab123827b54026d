import { useState, type DragEvent, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { Alert } from '../../components/ui/alert';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';
import { verifyCode, verifyPdf, type Verification } from './api/verification-api';
import { statusSentence, VerificationResult, type CheckedItem } from './verification-result';

const errorText = (error: unknown) =>
  error instanceof ApiError && error.code < 500 && error.message ? error.message : 'The check could not be made just now. Please try again in a moment.';

/**
 * `/verify` and `/verify/:code` (public, no sign-in): a holder types the code printed on a certificate or letter
 * (or scans its QR code, which opens `/verify/<code>`), or drops the PDF file, and learns whether we issued it and
 * whether it is still in force. The status is announced in a live region as it arrives.
 */
export function VerifyPage() {
  const { code: codeInPath } = useParams();
  const navigate = useNavigate();
  const [typed, setTyped] = useState(codeInPath ?? '');
  const [typedError, setTypedError] = useState<string | undefined>();
  const [dragging, setDragging] = useState(false);
  const [fileName, setFileName] = useState<string | null>(null);
  // A new code in the address (a link to the newer certificate, the browser's Back) shows in the field.
  const [typedFor, setTypedFor] = useState(codeInPath);
  if (typedFor !== codeInPath) { setTypedFor(codeInPath); setTyped(codeInPath ?? ''); setFileName(null); }

  const byCode = useQuery({
    queryKey: ['verify', codeInPath],
    queryFn: ({ signal }) => verifyCode(codeInPath!, signal),
    enabled: !!codeInPath,
    retry: false,
    staleTime: 0,
  });
  // A check by POST: it stores nothing, so nothing cached goes stale.
  const byFile = useInvalidatingMutation({ mutationFn: verifyPdf, invalidates: [] });

  const checkFile = (file: File | undefined) => {
    if (!file) return;
    setFileName(file.name);
    byFile.mutate(file);
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    const value = typed.trim();
    if (!value) { setTypedError('Please enter the verification code printed on the certificate or letter.'); return; }
    setTypedError(undefined);
    byFile.reset();
    setFileName(null);
    if (value === codeInPath) void byCode.refetch();
    else navigate(paths.verify.getHref(value));
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    checkFile(event.dataTransfer.files[0]);
  };

  // The file's answer, once asked for, is the page's answer; otherwise the code's.
  const shown: { answer?: Verification; error?: unknown; pending: boolean; checked: CheckedItem } | null = fileName
    ? { answer: byFile.data, error: byFile.error, pending: byFile.isPending, checked: { fileName } }
    : codeInPath ? { answer: byCode.data, error: byCode.error, pending: byCode.isFetching && !byCode.data, checked: { code: codeInPath } } : null;
  const announcement = shown?.pending ? 'Checking…'
    : shown?.error ? errorText(shown.error)
      : shown?.answer ? statusSentence(shown.answer, shown.checked) : '';

  return (
    <section className="page verify-page">
      <meta name="robots" content="noindex, nofollow" />
      <h1>Check a certificate or letter</h1>
      <p>
        Every Certificate of Insurance and Claim History and Insurance Verification letter we issue carries a verification
        code and a QR code. Enter the code, or choose the PDF file you received, to see whether we issued it and whether it
        is still in force.
      </p>
      <div className="verify-status" role="status" aria-live="polite" aria-atomic="true">
        <span className="sr-only">{announcement}</span>
      </div>
      {shown?.pending && <p className="loading">Checking…</p>}
      {shown?.error != null && !shown.pending && <Alert kind="error">{errorText(shown.error)}</Alert>}
      {shown?.answer && !shown.pending && <VerificationResult answer={shown.answer} checked={shown.checked} />}

      <div className="verify-forms">
        <form onSubmit={submitCode} noValidate className="card" aria-labelledby="verify-code-heading">
          <h2 id="verify-code-heading">Check a code</h2>
          <div className={`field${typedError ? ' field--invalid' : ''}`}>
            <label htmlFor="verify-code-input" className="field__label">Verification code</label>
            <input id="verify-code-input" name="code" type="text" className="field__control verify-code" autoComplete="off"
              spellCheck={false} autoCapitalize="characters" value={typed} placeholder="XXXX-XXXX-XXXXX"
              aria-invalid={typedError ? true : undefined} aria-describedby={typedError ? 'verify-code-error' : 'verify-code-hint'}
              onChange={(event) => setTyped(event.target.value)} />
            <p id="verify-code-hint" className="field__hint">Printed under the QR code, for example 7K3M-Q9XD-2HBW4. Case and dashes do not matter.</p>
            {typedError && <p id="verify-code-error" className="error-text">{typedError}</p>}
          </div>
          <button type="submit" className="button">Check</button>
        </form>

        <div className="card" role="group" aria-labelledby="verify-file-heading">
          <h2 id="verify-file-heading">Check a PDF file</h2>
          <div className={`verify-drop${dragging ? ' verify-drop--over' : ''}`}
            onDragOver={(event) => { event.preventDefault(); setDragging(true); }}
            onDragLeave={() => setDragging(false)} onDrop={onDrop}>
            <p>Drop the PDF here, or choose it. We check whether it is byte for byte a file we issued; the file is not kept.</p>
            <label htmlFor="verify-file-input" className="field__label">PDF file</label>
            <input id="verify-file-input" name="file" type="file" accept="application/pdf,.pdf"
              onChange={(event) => { checkFile(event.target.files?.[0]); event.target.value = ''; }} />
            {fileName && <p className="muted">Checked file: {fileName}</p>}
          </div>
        </div>
      </div>
    </section>
  );
}
