/** An email-confirmation link: check it, use it (no sign-in needed: it may be opened on another device). */
import type { ConfirmationValidity, EmailConfirmed } from '../../../../../contract/email-confirmation.schema';
import type { Wire } from '../../../../../contract/wire';
import { api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation';

export const checkConfirmationLink = (token: string) =>
  api.get<Wire<typeof ConfirmationValidity>>(`/email-confirmations/${encodeURIComponent(token)}`, { skipAuthRedirect: true });

/** Signed in here, the session learns at once that the address is proven (the banner goes, rights apply). */
export function useConfirmEmailAddress() {
  const { session, revalidate } = useAuth();
  return useInvalidatingMutation({
    mutationFn: (token: string) =>
      api.patch<Wire<typeof EmailConfirmed>>(`/email-confirmations/${encodeURIComponent(token)}`, {}, { skipAuthRedirect: true }),
    invalidates: [],
    onSuccess: () => (session.status === 'authenticated' ? revalidate() : undefined),
  });
}
