/** Password calls: change (signed in), forgot and reset with a token (spec 2 §7.9). */
import type {
  ChangePasswordBody, ChangePasswordResult, ForgotPasswordResult, ResetPasswordBody, ResetPasswordResult, ResetTokenValidity,
} from '../../../../../contract/password.schema';
import type { Wire } from '../../../../../contract/wire';
import { api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation';

/** The session goes on with the token and user the change answers (the old token ends with the old password). */
export function useChangePassword(userId: number) {
  const { replaceSession } = useAuth();
  return useInvalidatingMutation({
    mutationFn: (body: Wire<typeof ChangePasswordBody>) => api.patch<Wire<typeof ChangePasswordResult>>(`/users/${userId}/password`, body),
    invalidates: [],
    onSuccess: (result) => replaceSession(result.accessToken, result.user),
  });
}

/** Emails a reset link (the answer never says whether the address is registered): nothing cached changes. */
export const useForgotPassword = () => useInvalidatingMutation({
  mutationFn: (email: string) => api.post<Wire<typeof ForgotPasswordResult>>('/password-reset', { email }, { skipAuthRedirect: true }),
  invalidates: [],
});

export const checkResetToken = (token: string) =>
  api.get<Wire<typeof ResetTokenValidity>>(`/password-reset/${encodeURIComponent(token)}`, { skipAuthRedirect: true });

/** Signed out, nothing cached changes: the page sends the user to sign in. */
export const useResetPassword = () => useInvalidatingMutation({
  mutationFn: ({ token, body }: { token: string; body: Wire<typeof ResetPasswordBody> }) =>
    api.patch<Wire<typeof ResetPasswordResult>>(`/password-reset/${encodeURIComponent(token)}`, body, { skipAuthRedirect: true }),
  invalidates: [],
});
