/** API keys (`api-keys`, `admin/api-keys`): an external account's own keys, and every account's for administrators. */
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';
import type { AdminApiKeyRecord, ApiKeyCreateBody, ApiKeyRecord, CreatedApiKey } from '../../../../contract/api-key.schema';
import type { Wire } from '../../../../contract/wire';

export type ApiKeyEntry = Wire<typeof ApiKeyRecord>;
export type AdminApiKeyEntry = Wire<typeof AdminApiKeyRecord>;
export type NewApiKey = Wire<typeof CreatedApiKey>;

export const listOwnApiKeys = (signal?: AbortSignal) => api.get<ApiKeyEntry[]>('/api-keys', { signal });
export const listAllApiKeys = (signal?: AbortSignal) => api.get<AdminApiKeyEntry[]>('/admin/api-keys', { signal });

/** Creating a key changes the account's list (the key itself is in the answer only, never in the cache). */
export const useCreateApiKey = () => useInvalidatingMutation({
  mutationFn: (body: Wire<typeof ApiKeyCreateBody>) => api.post<NewApiKey>('/api-keys', body),
  invalidates: [queryKeys.apiKeys.all],
});

/** Revoking changes the owner's list and the administrators' (whichever is on screen is read again). */
export const useRevokeApiKey = () => useInvalidatingMutation({
  mutationFn: (id: number) => api.delete<ApiKeyEntry>(`/api-keys/${id}`),
  invalidates: [queryKeys.apiKeys.all],
});
