/** Password calls: change (signed in), forgot and reset with a token (spec 2 §7.9). */
import { api } from '../../../lib/api-client';
import type { User } from '../../../types/api';

export const changePassword = (userId: number, body: { currentPassword: string; password: string; confirmPassword: string }) =>
  api.patch<{ accessToken: string; user: User }>(`/users/${userId}/password`, body);

export const forgotPassword = (email: string) =>
  api.post<{ email: string }>('/password-reset', { email }, { skipAuthRedirect: true });

export const checkResetToken = (token: string) =>
  api.get<{ isValid: boolean }>(`/password-reset/${encodeURIComponent(token)}`, { skipAuthRedirect: true });

export const resetPassword = (token: string, body: { password: string; confirmPassword: string }) =>
  api.patch<{ isValid: boolean }>(`/password-reset/${encodeURIComponent(token)}`, body, { skipAuthRedirect: true });
