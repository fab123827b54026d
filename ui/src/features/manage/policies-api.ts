/** Policy years (spec 1 §5): the list, and the administrators' writes, each marking the list stale. */
import type { CreatePolicyBody, PatchPolicyBody, PolicyRecord } from '../../../../contract/desk.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';
import type { Paginated } from '../../types/api';

export type Policy = Wire<typeof PolicyRecord>;

export const getPolicies = (signal?: AbortSignal) => api.get<Paginated<Policy>>('/policies', { signal }).then((r) => r.data);

const usePolicyWrite = <V>(write: (variables: V) => Promise<unknown>) => useInvalidatingMutation({ mutationFn: write, invalidates: [queryKeys.policies] });

export const useCreatePolicy = () => usePolicyWrite((body: Wire<typeof CreatePolicyBody>) => api.post<Policy>('/policies', body));

export const useUpdatePolicy = () => usePolicyWrite(({ id, changes }: { id: number; changes: Wire<typeof PatchPolicyBody> }) =>
  api.patch<Policy>(`/policies/${id}`, changes));

export const useDeletePolicy = () => usePolicyWrite((id: number) => api.delete<Policy>(`/policies/${id}`));
