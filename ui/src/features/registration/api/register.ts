import { api } from '../../../lib/api-client';
import type { ExternalUserRecord as ExternalUserSchema } from '../../../../../contract/external-user.schema';
import type { RegistrationBody } from '../../../../../contract/registration.schema';
import type { Wire } from '../../../../../contract/wire';

export type RegistrationPayload = Wire<typeof RegistrationBody>;

/** POST users (spec 2 §7.11): open registration of an external requester behind the captcha. */
export const registerExternalUser = (payload: RegistrationPayload) => api.post<{ id: number }>('/users', payload, { skipAuthRedirect: true });

export type ExternalUserRecord = Wire<typeof ExternalUserSchema>;
export const getExternalUser = (id: number | string, signal?: AbortSignal) => api.get<ExternalUserRecord>(`/users/${id}`, { signal });
/** `currentPassword`: the user's own, when they change their own email. */
export const updateExternalUser = (id: number | string, fields: Omit<RegistrationPayload, 'password' | 'altcha'> & { currentPassword?: string }) =>
  api.patch<ExternalUserRecord>(`/users/${id}`, fields);
