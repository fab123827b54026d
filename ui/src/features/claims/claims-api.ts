/** The claims a credentialing letter names (spec 2 §7.6): the search among loaded claims, and the link. */
import type { ClaimDataRecord, ClaimHistoryRecord, LinkClaimsBody } from '../../../../contract/desk.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';
import type { Paginated } from '../../types/api';

export type Claim = Wire<typeof ClaimDataRecord>;
export type ClaimLink = Wire<typeof ClaimHistoryRecord>;

export const searchClaims = (query: Record<string, string | number>) => api.get<Paginated<Claim>>('/claim-history', { query });

/** The chosen claims replace the request's earlier links (none chosen: "no claims found"); the request and its audit change. */
export const useLinkClaims = (requestId: number) => useInvalidatingMutation({
  mutationFn: (claimIds: number[]) => api.post<ClaimLink[]>('/claim-history', { requestId, claimIds } satisfies Wire<typeof LinkClaimsBody>),
  invalidates: [queryKeys.requests.detail(requestId), queryKeys.requests.activity(requestId)],
});
