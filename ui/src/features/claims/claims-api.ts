/** The claims a credentialing letter names (spec 2 §7.6): the search among loaded claims, and the link. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimDataRecord, ClaimHistoryRecord, LinkClaimsBody } from '../../../../contract/desk.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import type { Paginated } from '../../types/api';

export type Claim = Wire<typeof ClaimDataRecord>;
export type ClaimLink = Wire<typeof ClaimHistoryRecord>;

export const searchClaims = (query: Record<string, string | number>) => api.get<Paginated<Claim>>('/claim-history', { query });

/** The chosen claims replace the request's earlier links (none chosen: "no claims found"); the request and its audit change. */
export function useLinkClaims(requestId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (claimIds: number[]) => api.post<ClaimLink[]>('/claim-history', { requestId, claimIds } satisfies Wire<typeof LinkClaimsBody>),
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.requests.detail(requestId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.requests.activity(requestId) }),
    ]),
  });
}
