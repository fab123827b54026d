/** Manage Administrative Users (`admins`) and Manage External Users (`search-registrants`, `users`), spec 2 §7.11. */
import { api } from '../../../lib/api-client';

export interface AdminEntry { id: number; firstName: string; lastName: string; email: string }
export type AdminFields = Omit<AdminEntry, 'id'>;

export interface ExternalUser {
  id: number; firstName: string; lastName: string; middleInitial: string | null; company: string | null;
  email: string; phone: string | null; active: boolean; lastLogin: string | null;
}
export interface RegistrantSearch { lastName: string; firstName: string; company: string; email: string }

export const listAdmins = (signal?: AbortSignal) => api.get<AdminEntry[]>('/admins', { signal });
export const createAdmin = (fields: AdminFields) => api.post<AdminEntry>('/admins', fields);
export const updateAdmin = (id: number, fields: Partial<AdminFields>) => api.patch<AdminEntry>(`/admins/${id}`, fields);
export const removeAdmin = (id: number) => api.delete<AdminEntry>(`/admins/${id}`);

export function searchRegistrants(search: RegistrantSearch) {
  const query = new URLSearchParams(Object.entries(search).filter(([, v]) => v));
  return api.get<ExternalUser[]>(`/search-registrants?${query.toString()}`);
}
export const setUserActive = (id: number, active: boolean) => api.patch<ExternalUser>(`/users/${id}`, { active });
