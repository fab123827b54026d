import { api } from '../../../lib/api-client';
import { listData, type DocumentRecord, type Paginated } from '../../../types/api';

/** Step 2 of adding a document: the record that names the uploaded file. */
export const createDocument = (body: { requestId: number; filename: string; description: string; storedName: string }) =>
  api.post<DocumentRecord>('/documents', body);

export const getDocuments = (requestId: number): Promise<DocumentRecord[]> =>
  api.get<Paginated<DocumentRecord>>('/documents', { query: { requestId } }).then(listData);

export const deleteDocument = (id: number): Promise<unknown> => api.delete(`/documents/${id}`);

/** The file bytes, fetched with the auth header so the browser can save them. */
export const downloadDocument = (requestId: number, name: string): Promise<Blob> =>
  api.blob(`/documents/${requestId}/${encodeURIComponent(name)}`);
