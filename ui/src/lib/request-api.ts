/** Calls on the request resource that several features share (dashboard, request form, admin panel). */
import type { PatchRequestBody } from '../../../contract/request.schema';
import type { RequestRecord } from '../types/api';
import { api } from './api-client';
import { queryKeys } from './query-keys';
import { useInvalidatingMutation } from './use-invalidating-mutation';

/** One request with its documents, discussions and claim history. */
export const getRequest = (id: number, signal?: AbortSignal): Promise<RequestRecord> =>
  api.get<RequestRecord>(`/requests/${id}`, { signal });

/**
 * A command (Submit, an admin's Save, Reopen) made on the version of the request the page last received: pressing
 * it again on the same version is answered like the first time; a version that is no longer current gets 409
 * Conflict. Without a known version (an older server that does not send it) the field is left out.
 */
export const commandRequest = (id: number, changes: PatchRequestBody, seenVersion: number | undefined): Promise<RequestRecord> =>
  api.patch<RequestRecord>(`/requests/${id}`, typeof seenVersion === 'number' ? { ...changes, version: seenVersion } : changes);

/**
 * An administrator's command on the request as the page shows it (`version`: the one it started from). The answer
 * is the request as it now is (the new version included, so the next command is made on it): it becomes the page's
 * copy at once, and the request is not read again for it. The PATCH answer has no related lists (documents,
 * messages, claims), so those stay from the page's copy: a command changes none of them. The audit trail, the
 * dashboards' lists and counts are marked stale. What the workflow writes next (letters, emails, audit rows)
 * arrives as live events.
 */
export const useRequestCommand = (id: number) => useInvalidatingMutation({
  mutationFn: ({ changes, version }: { changes: PatchRequestBody; version: number | undefined }) => commandRequest(id, changes, version),
  setsAnswer: (updated) => ({
    queryKey: queryKeys.requests.detail(id),
    update: (cached: RequestRecord | undefined) => (cached ? { ...cached, ...updated } : cached),
  }),
  invalidates: [queryKeys.requests.activity(id), queryKeys.requests.lists, queryKeys.adminDashboards],
});

/** Deletes the caller's own draft (and its documents): it leaves the lists. */
export const useDeleteRequest = () => useInvalidatingMutation({
  mutationFn: (id: number) => api.delete<unknown>(`/requests/${id}`),
  invalidates: [queryKeys.requests.lists, queryKeys.adminDashboards],
});
