import { useMutation } from '@tanstack/react-query';
import type { ConfirmationLinkSent } from '../../../../../contract/email-confirmation.schema';
import type { Wire } from '../../../../../contract/wire';
import { api } from '../../../lib/api-client';

/** Sends the signed-in user's confirmation link once more: mail only, nothing the screens show changes. */
export const useSendConfirmationLinkAgain = () => useMutation({
  mutationFn: () => api.post<Wire<typeof ConfirmationLinkSent>>('/email-confirmations', {}),
});
