/** Email-confirmation links (issue #16): ask for a link again (signed in), check one, use one (no sign-in needed). */
import { api } from './api-client';

export const sendConfirmationLinkAgain = () => api.post<{ email: string }>('/email-confirmations', {});

export const checkConfirmationLink = (token: string) =>
  api.get<{ isValid: boolean }>(`/email-confirmations/${encodeURIComponent(token)}`, { skipAuthRedirect: true });

export const confirmEmailAddress = (token: string) =>
  api.patch<{ email: string; confirmed: boolean }>(`/email-confirmations/${encodeURIComponent(token)}`, {}, { skipAuthRedirect: true });
