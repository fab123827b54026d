/** Calls of the administrators' desk (spec 2 §7.5, §7.6, §7.9, §7.11) and the records they answer. */
import { api, API_BASE } from '../../lib/api-client';
import { readToken } from '../../lib/token-storage';
import { ApiError } from '../../lib/api-error';

export interface SearchRow {
  id: number; requestNumber: number | null; requesterName: string | null; requestType: string; typeLabel: string;
  submitDate: string | null; completedDate: string | null; employerType: string; status: string;
}
export interface Faq { id: number; type: 'Admin' | 'Requester'; question: string; answer: string; order: number }
export interface Policy { id: number; startDate: string; endDate: string; policyNumber: string; limitClaim: string; annualAggregate: string }
export interface EmailTemplate { id: number; title: string; subject: string; body: string; order: number }
export interface Claim {
  id: number; exportDate: string; physicianLastName: string; physicianFirstName: string; physicianMiddleInitial: string;
  involvement: string; claimNumber: string; type: string; status: string; outcome: string; claimDate: string; reportDate: string;
  indemnityPaid: string; description: string;
}
export interface ClaimLink {
  id: number; requestId: number; claimId?: number | null; physician: string; involvement?: string | null;
  claimNumber?: string | null; reportDate?: string | null; indemnityPaid?: string | null;
}
export interface RequestExport {
  id: number; filename: string; state: 'running' | 'done' | 'failed'; dateFrom?: string | null; dateTo?: string | null;
  filterByType?: string | null; rowsTotal: number; rowsWritten: number; size?: number | null; createdBy: string; createdAt: string;
}
interface List<T> { total: number; limit: number; skip: number; data: T[] }

export const searchRequests = (query: Record<string, string | number>, signal?: AbortSignal) =>
  api.get<{ limit: number; data: SearchRow[] }>('/search-requests', { query, signal });

export const getFaqs = (type: 'Admin' | 'Requester', signal?: AbortSignal) =>
  api.get<List<Faq>>('/faqs', { query: { type, $sort: { order: 1 } }, signal }).then((r) => r.data);
export const createFaq = (body: Omit<Faq, 'id' | 'order'> & { order?: number | string }) => api.post<Faq>('/faqs', body);
export const updateFaq = (id: number, body: { question: string; answer: string; order: number | string }) => api.patch<Faq>(`/faqs/${id}`, body);
export const deleteFaq = (id: number) => api.delete<Faq>(`/faqs/${id}`);

export const getPolicies = (signal?: AbortSignal) => api.get<List<Policy>>('/policies', { signal }).then((r) => r.data);
export const createPolicy = (body: Omit<Policy, 'id'>) => api.post<Policy>('/policies', body);
export const updatePolicy = (id: number, body: Omit<Policy, 'id'>) => api.patch<Policy>(`/policies/${id}`, body);
export const deletePolicy = (id: number) => api.delete<Policy>(`/policies/${id}`);

export const getTemplates = (signal?: AbortSignal) => api.get<List<EmailTemplate>>('/email-templates', { signal }).then((r) => r.data);
export const updateTemplate = (id: number, body: { subject: string; body: string }) => api.patch<EmailTemplate>(`/email-templates/${id}`, body);
export const previewTemplate = (body: { subject: string; body: string }) =>
  api.post<{ subject: string; body: string; requestNumber: number | null; sample: boolean }>('/email-templates/preview', body);

export const getClaims = (signal?: AbortSignal) =>
  api.get<List<Claim>>('/cs-stars', { query: { $limit: 10000, $skip: 0, $sort: { reportDate: -1 } }, signal });

/** The CSV upload, with the browser's upload progress (0..1), then the server's answer. */
export function uploadClaims(file: File, onProgress: (fraction: number) => void): Promise<{ rows: number; inserted: number; updated: number; staleLetters?: number } & List<Claim>> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('limit', '10000');
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}/cs-stars`);
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
    xhr.onload = () => {
      const body = xhr.responseText ? JSON.parse(xhr.responseText) : {};
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(503, { message: 'Unavailable' }));
    xhr.send(form);
  });
}

export const searchClaims = (query: Record<string, string | number>) => api.get<List<Claim>>('/claim-history', { query });
export const linkClaims = (requestId: number, claimIds: number[]) => api.post<ClaimLink[]>('/claim-history', { requestId, claimIds });

export const getExports = (signal?: AbortSignal) => api.get<{ data: RequestExport[] }>('/export-requests', { signal }).then((r) => r.data);
export const startExport = (body: { filename: string; dateFrom?: string; dateTo?: string; filterByType?: string }) =>
  api.post<RequestExport & { isMockApi?: boolean }>('/export-requests', body);
export const downloadExport = (id: number) => api.blob(`/export-requests/${id}/file`);
