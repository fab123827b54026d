import { api } from '../../../lib/api-client';

export interface RegistrationPayload {
  lastName: string; firstName: string; middleInitial: string; company: string; phone: string; email: string; password: string; altcha: string;
}

/** POST users (spec 2 §7.11): open registration of an external requester behind the captcha. */
export const registerExternalUser = (payload: RegistrationPayload) => api.post<{ id: number }>('/users', payload, { skipAuthRedirect: true });

export interface ExternalUserRecord {
  id: number; firstName: string; lastName: string; middleInitial: string | null; company: string | null; email: string; phone: string | null;
  /** Issue #16: whether the account proved its address, and an address change waiting for its link. */
  emailConfirmed?: boolean; pendingEmail?: string | null;
}
export const getExternalUser = (id: number | string, signal?: AbortSignal) => api.get<ExternalUserRecord>(`/users/${id}`, { signal });
export const updateExternalUser = (id: number | string, fields: Omit<RegistrationPayload, 'password' | 'altcha'>) =>
  api.patch<ExternalUserRecord>(`/users/${id}`, fields);
