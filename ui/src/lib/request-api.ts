/** Calls on the request resource that several features share (dashboard, request form, admin panel). */
import type { PatchRequestBody } from '../../../contract/request.schema';
import type { RequestRecord } from '../types/api';
import { api } from './api-client';

/** One request with its documents, discussions and claim history. */
export const getRequest = (id: number, signal?: AbortSignal): Promise<RequestRecord> =>
  api.get<RequestRecord>(`/requests/${id}`, { signal });

/** Form fields, verification and notes: saved as they are, no version needed. */
export const updateRequest = (id: number, changes: PatchRequestBody): Promise<RequestRecord> =>
  api.patch<RequestRecord>(`/requests/${id}`, changes);

/**
 * A command (Submit, an admin's Save, Reopen) made on the version of the request the page last received: pressing
 * it again on the same version is answered like the first time; a version that is no longer current gets 409
 * Conflict. Without a known version (an older server that does not send it) the field is left out.
 */
export const commandRequest = (id: number, changes: PatchRequestBody, seenVersion: number | undefined): Promise<RequestRecord> =>
  api.patch<RequestRecord>(`/requests/${id}`, typeof seenVersion === 'number' ? { ...changes, version: seenVersion } : changes);

/** Deletes the caller's own draft (and its documents). */
export const deleteRequest = (id: number): Promise<unknown> => api.delete(`/requests/${id}`);
