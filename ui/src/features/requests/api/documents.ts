/**
 * A request's supporting documents (spec 2 §7.7). Every write changes the request (its document list comes with it)
 * and its audit trail: both are marked stale.
 */
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation';
import type { DocumentRecord } from '../../../types/api';
import { uploadFile } from './upload-file';

const useDocumentWrite = <V, T>(write: (variables: V) => Promise<{ requestId: number; answer: T }>) => useInvalidatingMutation({
  mutationFn: write,
  invalidates: ({ requestId }) => [queryKeys.requests.detail(requestId), queryKeys.requests.activity(requestId)],
});

interface NewDocument {
  /** The draft's id; creates the draft when it does not exist yet. */
  ensureRequestId: () => Promise<number>;
  file: File;
  description: string;
  /** administrators only: attach it to the approval email */
  isAttachment?: boolean;
}

/** Uploads the bytes (POST /upload), then records the document that names them (POST /documents). */
export const useAddDocument = () => useDocumentWrite(async ({ ensureRequestId, file, description, isAttachment }: NewDocument) => {
  const requestId = await ensureRequestId();
  const uploaded = await uploadFile(requestId, file);
  const answer = await api.post<DocumentRecord>('/documents', {
    requestId, filename: uploaded.filename, description, storedName: uploaded.storedName,
    ...(isAttachment === undefined ? {} : { isAttachment }),
  });
  return { requestId, answer };
});

/** Administrators: rename, redescribe, set the attach-to-approval-email flag. */
export const useEditDocument = () => useDocumentWrite(async ({ document, changes }: {
  document: DocumentRecord; changes: { filename?: string; description?: string; isAttachment?: boolean };
}) => ({ requestId: document.requestId, answer: await api.patch<DocumentRecord>(`/documents/${document.id}`, changes) }));

export const useDeleteDocument = () => useDocumentWrite(async (document: DocumentRecord) =>
  ({ requestId: document.requestId, answer: await api.delete<unknown>(`/documents/${document.id}`) }));

/** Regenerates the request's letter or certificate (and emails it); answers the request's document list. */
export const useGeneratePdfs = () => useDocumentWrite(async ({ requestId, sendWithEmail }: { requestId: number; sendWithEmail: boolean }) =>
  ({ requestId, answer: await api.post<DocumentRecord[]>('/generate-pdfs', { requestId, sendWithEmail }) }));

/** The file bytes, fetched with the auth header so the browser can save them. */
export const downloadDocument = (requestId: number, name: string): Promise<Blob> =>
  api.blob(`/documents/${requestId}/${encodeURIComponent(name)}`);
