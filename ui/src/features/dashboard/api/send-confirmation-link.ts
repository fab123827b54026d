import type { ConfirmationLinkSent } from '../../../../../contract/email-confirmation.schema';
import type { Wire } from '../../../../../contract/wire';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation';

/** Sends the signed-in user's confirmation link once more: mail only, nothing the screens show changes. */
export const useSendConfirmationLinkAgain = () => useInvalidatingMutation({
  mutationFn: () => api.post<Wire<typeof ConfirmationLinkSent>>('/email-confirmations', {}),
  invalidates: [],
});
