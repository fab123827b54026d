/**
 * Messages on a request (spec 2 §7.8), shared by the request's view page and its form: a post or a delete changes
 * the request's discussions (sent with the request, and read on their own by the form page) and its audit trail.
 */
import type { CreateDiscussionBody, DiscussionRecord, PatchDiscussionBody } from '../../../contract/discussion.schema';
import type { Wire } from '../../../contract/wire';
import { api } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';
import { useInvalidatingMutation } from '../lib/use-invalidating-mutation';

/** The request's messages, oldest first (deleted ones are not listed). */
export const getDiscussions = (requestId: number, signal?: AbortSignal) =>
  api.get<Wire<typeof DiscussionRecord>[]>('/discussions', { query: { requestId }, signal });

const useDiscussionWrite = <V>(requestId: number, write: (variables: V) => Promise<unknown>) => useInvalidatingMutation({
  mutationFn: write,
  invalidates: [queryKeys.requests.detail(requestId), queryKeys.requests.activity(requestId), queryKeys.discussions(requestId)],
});

/** A new thread (`topic`) or a reply in one (`discussionId`). */
export const usePostMessage = (requestId: number) => useDiscussionWrite(requestId,
  (body: Omit<Wire<typeof CreateDiscussionBody>, 'requestId'>) => api.post<unknown>('/discussions', { ...body, requestId }));

/** Administrators: a message is deleted by marking it so. */
export const useDeleteMessage = (requestId: number) => useDiscussionWrite(requestId,
  (id: number) => api.patch<unknown>(`/discussions/${id}`, { deletedAt: new Date().toISOString() } satisfies Wire<typeof PatchDiscussionBody>));
