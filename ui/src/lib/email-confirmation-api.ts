/** Email-confirmation links (issue #16): ask for a link again (signed in), check one, use one (no sign-in needed). */
import type { ConfirmationLinkSent, ConfirmationValidity, EmailConfirmed } from '../../../contract/email-confirmation.schema';
import type { Wire } from '../../../contract/wire';
import { api } from './api-client';

export const sendConfirmationLinkAgain = () => api.post<Wire<typeof ConfirmationLinkSent>>('/email-confirmations', {});

export const checkConfirmationLink = (token: string) =>
  api.get<Wire<typeof ConfirmationValidity>>(`/email-confirmations/${encodeURIComponent(token)}`, { skipAuthRedirect: true });

export const confirmEmailAddress = (token: string) =>
  api.patch<Wire<typeof EmailConfirmed>>(`/email-confirmations/${encodeURIComponent(token)}`, {}, { skipAuthRedirect: true });
