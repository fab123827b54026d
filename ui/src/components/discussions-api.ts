/**
 * Messages on a request (spec 2 §7.8), shared by the request's view page and its form: a post or a delete changes
 * the request's discussions (sent with the request) and its audit trail.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateDiscussionBody, PatchDiscussionBody } from '../../../contract/discussion.schema';
import type { Wire } from '../../../contract/wire';
import { api } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

function useDiscussionWrite<V>(requestId: number, write: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.requests.detail(requestId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.requests.activity(requestId) });
    },
  });
}

/** A new thread (`topic`) or a reply in one (`discussionId`). */
export const usePostMessage = (requestId: number) => useDiscussionWrite(requestId,
  (body: Omit<Wire<typeof CreateDiscussionBody>, 'requestId'>) => api.post<unknown>('/discussions', { ...body, requestId }));

/** Administrators: a message is deleted by marking it so. */
export const useDeleteMessage = (requestId: number) => useDiscussionWrite(requestId,
  (id: number) => api.patch<unknown>(`/discussions/${id}`, { deletedAt: new Date().toISOString() } satisfies Wire<typeof PatchDiscussionBody>));
