import { api } from '../../../lib/api-client';
import { listData, type DocumentRecord, type Paginated } from '../../../types/api';

/** Step 2 of adding a document: the record that names the uploaded file (`isAttachment`: administrators only). */
export const createDocument = (body: { requestId: number; filename: string; description: string; storedName: string; isAttachment?: boolean }) =>
  api.post<DocumentRecord>('/documents', body);

export const getDocuments = (requestId: number): Promise<DocumentRecord[]> =>
  api.get<Paginated<DocumentRecord>>('/documents', { query: { requestId } }).then(listData);

/** Administrators: rename, redescribe, set the attach-to-approval-email flag. */
export const patchDocument = (id: number, changes: { filename?: string; description?: string; isAttachment?: boolean }) =>
  api.patch<DocumentRecord>(`/documents/${id}`, changes);

export const deleteDocument = (id: number): Promise<unknown> => api.delete(`/documents/${id}`);

/** The file bytes, fetched with the auth header so the browser can save them. */
export const downloadDocument = (requestId: number, name: string): Promise<Blob> =>
  api.blob(`/documents/${requestId}/${encodeURIComponent(name)}`);

/** Regenerates the request's letter or certificate (and emails it); answers the request's document list. */
export const generatePdfs = (requestId: number, sendWithEmail: boolean): Promise<DocumentRecord[]> =>
  api.post<DocumentRecord[]>('/generate-pdfs', { requestId, sendWithEmail });
