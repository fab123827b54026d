import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation';
import type { ExternalUserRecord as ExternalUserSchema } from '../../../../../contract/external-user.schema';
import type { RegistrationBody } from '../../../../../contract/registration.schema';
import type { Wire } from '../../../../../contract/wire';

export type RegistrationPayload = Wire<typeof RegistrationBody>;

/** POST users (spec 2 §7.11): open registration of an external requester behind the captcha (nobody is signed in: nothing cached). */
export const useRegisterExternalUser = () => useInvalidatingMutation({
  mutationFn: (payload: RegistrationPayload) => api.post<{ id: number }>('/users', payload, { skipAuthRedirect: true }),
  invalidates: [],
});

export type ExternalUserRecord = Wire<typeof ExternalUserSchema>;
export const getExternalUser = (id: number | string, signal?: AbortSignal) => api.get<ExternalUserRecord>(`/users/${id}`, { signal });
type ProfileChanges = Omit<RegistrationPayload, 'password' | 'altcha'> & { currentPassword?: string };

/** A profile saved (`currentPassword`: the user's own, when they change their own email): that user is read again. */
export const useUpdateExternalUser = (id: string) => useInvalidatingMutation({
  mutationFn: (fields: ProfileChanges) => api.patch<ExternalUserRecord>(`/users/${id}`, fields),
  invalidates: [queryKeys.externalUser(id)],
});
