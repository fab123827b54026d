import { api } from '../../../lib/api-client';

export interface RegistrationPayload {
  lastName: string; firstName: string; middleInitial: string; company: string; phone: string; email: string; password: string; altcha: string;
}

/** POST users (spec 2 §7.11): open registration of an external requester behind the captcha. */
export const registerExternalUser = (payload: RegistrationPayload) => api.post<{ id: number }>('/users', payload, { skipAuthRedirect: true });
