/** Calls on the request resource that several features share (dashboard, request form, admin panel). */
import type { PatchRequestBody } from '../../../contract/request.schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RequestRecord } from '../types/api';
import { api } from './api-client';
import { queryKeys } from './query-keys';

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

/** What a change to one request makes stale: the request, its audit trail, the dashboards' lists and counts. */
function invalidateRequest(queryClient: ReturnType<typeof useQueryClient>, id: number) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.requests.detail(id) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.requests.activity(id) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.requests.lists });
  void queryClient.invalidateQueries({ queryKey: queryKeys.adminDashboards });
}

/**
 * An administrator's command on the request as the page shows it (`version`: the one it started from). The answer
 * carries the new version at once, so the next command is made on it; the PATCH answer has no related lists, so
 * they stay from the page's copy until the request is read again. What the workflow writes next (letters, emails,
 * audit rows) arrives as live events.
 */
export function useRequestCommand(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ changes, version }: { changes: PatchRequestBody; version: number | undefined }) => commandRequest(id, changes, version),
    onSuccess: (updated) => {
      queryClient.setQueryData<RequestRecord>(queryKeys.requests.detail(id), (old) => (old ? { ...old, ...updated } : old));
      invalidateRequest(queryClient, id);
    },
  });
}

/** Deletes the caller's own draft (and its documents): it leaves the lists. */
export function useDeleteRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/requests/${id}`),
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.requests.lists }),
      queryClient.invalidateQueries({ queryKey: queryKeys.adminDashboards }),
    ]),
  });
}
