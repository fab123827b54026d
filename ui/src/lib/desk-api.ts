/** Calls of the administrators' desk (spec 2 §7.5, §7.6, §7.9, §7.11) and the records they answer. */
import { api, API_BASE } from './api-client';
import { readToken } from './token-storage';
import { ApiError } from './api-error';
import type {
  ClaimDataRecord, ClaimHistoryRecord, CreateExportBody, CreateFaqBody, CreatePolicyBody, CsStarsUploadResult, EmailTemplateRecord,
  ExportRecord, FaqRecord, LinkClaimsBody, PatchPolicyBody, PatchTemplateBody, PolicyRecord, PreviewResult, PreviewTemplateBody,
  SearchResult, SearchRow as SearchRowSchema, UpdateFaqBody,
} from '../../../contract/desk.schema';
import type { Wire } from '../../../contract/wire';
import type { FaqType } from '../../../domain';
import type { Paginated } from '../types/api';

export type SearchRow = Wire<typeof SearchRowSchema>;
export type Faq = Omit<Wire<typeof FaqRecord>, 'type'> & { type: FaqType };
export type Policy = Wire<typeof PolicyRecord>;
export type EmailTemplate = Wire<typeof EmailTemplateRecord>;
export type Claim = Wire<typeof ClaimDataRecord>;
export type ClaimLink = Wire<typeof ClaimHistoryRecord>;
export type RequestExport = Wire<typeof ExportRecord>;
type List<T> = Paginated<T>;

export const searchRequests = (query: Record<string, string | number>, signal?: AbortSignal) =>
  api.get<Wire<typeof SearchResult>>('/search-requests', { query, signal });

export const getFaqs = (type: 'Admin' | 'Requester', signal?: AbortSignal) =>
  api.get<List<Faq>>('/faqs', { query: { type, $sort: { order: 1 } }, signal }).then((r) => r.data);
export const createFaq = (body: Wire<typeof CreateFaqBody>) => api.post<Faq>('/faqs', body);
export const updateFaq = (id: number, body: Wire<typeof UpdateFaqBody>) => api.patch<Faq>(`/faqs/${id}`, body);
export const deleteFaq = (id: number) => api.delete<Faq>(`/faqs/${id}`);

export const getPolicies = (signal?: AbortSignal) => api.get<List<Policy>>('/policies', { signal }).then((r) => r.data);
export const createPolicy = (body: Wire<typeof CreatePolicyBody>) => api.post<Policy>('/policies', body);
export const updatePolicy = (id: number, body: Wire<typeof PatchPolicyBody>) => api.patch<Policy>(`/policies/${id}`, body);
export const deletePolicy = (id: number) => api.delete<Policy>(`/policies/${id}`);

export const getTemplates = (signal?: AbortSignal) => api.get<List<EmailTemplate>>('/email-templates', { signal }).then((r) => r.data);
export const updateTemplate = (id: number, body: Wire<typeof PatchTemplateBody>) => api.patch<EmailTemplate>(`/email-templates/${id}`, body);
export const previewTemplate = (body: Wire<typeof PreviewTemplateBody>) =>
  api.post<Wire<typeof PreviewResult>>('/email-templates/preview', body);

export const getClaims = (signal?: AbortSignal) =>
  api.get<List<Claim>>('/cs-stars', { query: { $limit: 10000, $skip: 0, $sort: { reportDate: -1 } }, signal });

/** The CSV upload, with the browser's upload progress (0..1), then the server's answer. */
export function uploadClaims(file: File, onProgress: (fraction: number) => void): Promise<Wire<typeof CsStarsUploadResult>> {
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
export const linkClaims = (requestId: number, claimIds: number[]) => api.post<ClaimLink[]>('/claim-history', { requestId, claimIds } satisfies Wire<typeof LinkClaimsBody>);

export const getExports = (signal?: AbortSignal) => api.get<{ data: RequestExport[] }>('/export-requests', { signal }).then((r) => r.data);
export const startExport = (body: Wire<typeof CreateExportBody>) =>
  api.post<RequestExport>('/export-requests', body);
export const downloadExport = (id: number) => api.blob(`/export-requests/${id}/file`);
