/** Policy years (spec 1 §5): the list, and the administrators' writes, each marking the list stale. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatePolicyBody, PatchPolicyBody, PolicyRecord } from '../../../../contract/desk.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import type { Paginated } from '../../types/api';

export type Policy = Wire<typeof PolicyRecord>;

export const getPolicies = (signal?: AbortSignal) => api.get<Paginated<Policy>>('/policies', { signal }).then((r) => r.data);

function usePolicyWrite<V>(write: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.policies }) });
}

export const useCreatePolicy = () => usePolicyWrite((body: Wire<typeof CreatePolicyBody>) => api.post<Policy>('/policies', body));

export const useUpdatePolicy = () => usePolicyWrite(({ id, changes }: { id: number; changes: Wire<typeof PatchPolicyBody> }) =>
  api.patch<Policy>(`/policies/${id}`, changes));

export const useDeletePolicy = () => usePolicyWrite((id: number) => api.delete<Policy>(`/policies/${id}`));
