/** Manage Administrative Users (`admins`) and Manage External Users (`search-registrants`, `users`), spec 2 §7.11. */
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation';
import type { AdminRecord } from '../../../../../contract/admin.schema';
import type { ExternalUserRecord, RegistrantSearchQuery } from '../../../../../contract/external-user.schema';
import type { Wire } from '../../../../../contract/wire';

export type AdminEntry = Wire<typeof AdminRecord>;
export type AdminFields = Omit<AdminEntry, 'id'>;

export type ExternalUser = Wire<typeof ExternalUserRecord>;
export type RegistrantSearch = Required<Wire<typeof RegistrantSearchQuery>>;

export const listAdmins = (signal?: AbortSignal) => api.get<AdminEntry[]>('/admins', { signal });

/** Each write changes the administrators' list. */
const useAdminWrite = <V>(write: (variables: V) => Promise<AdminEntry>) => useInvalidatingMutation({ mutationFn: write, invalidates: [queryKeys.admins] });

export const useCreateAdmin = () => useAdminWrite((fields: AdminFields) => api.post<AdminEntry>('/admins', fields));
export const useUpdateAdmin = () => useAdminWrite(({ id, fields }: { id: number; fields: Partial<AdminFields> }) =>
  api.patch<AdminEntry>(`/admins/${id}`, fields));
export const useRemoveAdmin = () => useAdminWrite((id: number) => api.delete<AdminEntry>(`/admins/${id}`));

export function searchRegistrants(search: RegistrantSearch) {
  const query = new URLSearchParams(Object.entries(search).filter(([, v]) => v));
  return api.get<ExternalUser[]>(`/search-registrants?${query.toString()}`);
}

/** Deactivates or reactivates an external user; their profile, if it was read, is read again. */
export const useSetUserActive = () => useInvalidatingMutation({
  mutationFn: ({ id, active }: { id: number; active: boolean }) => api.patch<ExternalUser>(`/users/${id}`, { active }),
  invalidates: (updated) => [queryKeys.externalUser(String(updated.id))],
});
