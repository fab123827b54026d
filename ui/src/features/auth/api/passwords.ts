/** Password calls: change (signed in), forgot and reset with a token (spec 2 §7.9). */
import type {
  ChangePasswordBody, ChangePasswordResult, ForgotPasswordResult, ResetPasswordBody, ResetPasswordResult, ResetTokenValidity,
} from '../../../../../contract/password.schema';
import type { Wire } from '../../../../../contract/wire';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';

/** The session goes on with the token and user the change answers (the old token ends with the old password). */
export function useChangePassword(userId: number) {
  const { replaceSession } = useAuth();
  return useMutation({
    mutationFn: (body: Wire<typeof ChangePasswordBody>) => api.patch<Wire<typeof ChangePasswordResult>>(`/users/${userId}/password`, body),
    onSuccess: (result) => replaceSession(result.accessToken, result.user),
  });
}

/** Emails a reset link (the answer never says whether the address is registered). */
export const useForgotPassword = () => useMutation({
  mutationFn: (email: string) => api.post<Wire<typeof ForgotPasswordResult>>('/password-reset', { email }, { skipAuthRedirect: true }),
});

export const checkResetToken = (token: string) =>
  api.get<Wire<typeof ResetTokenValidity>>(`/password-reset/${encodeURIComponent(token)}`, { skipAuthRedirect: true });

export const useResetPassword = () => useMutation({
  mutationFn: ({ token, body }: { token: string; body: Wire<typeof ResetPasswordBody> }) =>
    api.patch<Wire<typeof ResetPasswordResult>>(`/password-reset/${encodeURIComponent(token)}`, body, { skipAuthRedirect: true }),
});
