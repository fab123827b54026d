/** Manage Administrative Users (`admins`) and Manage External Users (`search-registrants`, `users`), spec 2 §7.11. */
import { api } from '../../../lib/api-client';
import type { AdminRecord } from '../../../../../contract/admin.schema';
import type { ExternalUserRecord, RegistrantSearchQuery } from '../../../../../contract/external-user.schema';
import type { Wire } from '../../../../../contract/wire';

export type AdminEntry = Wire<typeof AdminRecord>;
export type AdminFields = Omit<AdminEntry, 'id'>;

export type ExternalUser = Wire<typeof ExternalUserRecord>;
export type RegistrantSearch = Required<Wire<typeof RegistrantSearchQuery>>;

export const listAdmins = (signal?: AbortSignal) => api.get<AdminEntry[]>('/admins', { signal });
export const createAdmin = (fields: AdminFields) => api.post<AdminEntry>('/admins', fields);
export const updateAdmin = (id: number, fields: Partial<AdminFields>) => api.patch<AdminEntry>(`/admins/${id}`, fields);
export const removeAdmin = (id: number) => api.delete<AdminEntry>(`/admins/${id}`);

export function searchRegistrants(search: RegistrantSearch) {
  const query = new URLSearchParams(Object.entries(search).filter(([, v]) => v));
  return api.get<ExternalUser[]>(`/search-registrants?${query.toString()}`);
}
export const setUserActive = (id: number, active: boolean) => api.patch<ExternalUser>(`/users/${id}`, { active });
