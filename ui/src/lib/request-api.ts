/** Calls on the request resource that several features share (dashboard, request form, admin panel). */
import type { RequestRecord } from '../types/api';
import { api } from './api-client';

/** One request with its documents, discussions and claim history. */
export const getRequest = (id: number, signal?: AbortSignal): Promise<RequestRecord> =>
  api.get<RequestRecord>(`/requests/${id}`, { signal });

export const updateRequest = (id: number, changes: Record<string, unknown>): Promise<RequestRecord> =>
  api.patch<RequestRecord>(`/requests/${id}`, changes);

/** Deletes the caller's own draft (and its documents). */
export const deleteRequest = (id: number): Promise<unknown> => api.delete(`/requests/${id}`);
