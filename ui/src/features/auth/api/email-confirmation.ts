/** An email-confirmation link: check it, use it (no sign-in needed: it may be opened on another device). */
import { useMutation } from '@tanstack/react-query';
import type { ConfirmationValidity, EmailConfirmed } from '../../../../../contract/email-confirmation.schema';
import type { Wire } from '../../../../../contract/wire';
import { api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';

export const checkConfirmationLink = (token: string) =>
  api.get<Wire<typeof ConfirmationValidity>>(`/email-confirmations/${encodeURIComponent(token)}`, { skipAuthRedirect: true });

/** Signed in here, the session learns at once that the address is proven (the banner goes, rights apply). */
export function useConfirmEmailAddress() {
  const { session, revalidate } = useAuth();
  return useMutation({
    mutationFn: (token: string) =>
      api.patch<Wire<typeof EmailConfirmed>>(`/email-confirmations/${encodeURIComponent(token)}`, {}, { skipAuthRedirect: true }),
    onSuccess: () => (session.status === 'authenticated' ? revalidate() : undefined),
  });
}
