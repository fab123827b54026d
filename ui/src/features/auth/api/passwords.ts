/** Password calls: change (signed in), forgot and reset with a token (spec 2 §7.9). */
import type {
  ChangePasswordBody, ChangePasswordResult, ForgotPasswordResult, ResetPasswordBody, ResetPasswordResult, ResetTokenValidity,
} from '../../../../../contract/password.schema';
import type { Wire } from '../../../../../contract/wire';
import { api } from '../../../lib/api-client';

export const changePassword = (userId: number, body: Wire<typeof ChangePasswordBody>) =>
  api.patch<Wire<typeof ChangePasswordResult>>(`/users/${userId}/password`, body);

export const forgotPassword = (email: string) =>
  api.post<Wire<typeof ForgotPasswordResult>>('/password-reset', { email }, { skipAuthRedirect: true });

export const checkResetToken = (token: string) =>
  api.get<Wire<typeof ResetTokenValidity>>(`/password-reset/${encodeURIComponent(token)}`, { skipAuthRedirect: true });

export const resetPassword = (token: string, body: Wire<typeof ResetPasswordBody>) =>
  api.patch<Wire<typeof ResetPasswordResult>>(`/password-reset/${encodeURIComponent(token)}`, body, { skipAuthRedirect: true });
