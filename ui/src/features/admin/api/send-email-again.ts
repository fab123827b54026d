import { api } from '../../../lib/api-client';

export interface SendEmailAgainAnswer {
  queued: boolean;
  templateTitle: string;
}

/**
 * Queues a failed email once more (202 `{ queued: true, templateTitle }`); `retryOf` is the id of the
 * 'Email Failed' audit row, so the server knows which failure this answers.
 */
export const sendEmailAgain = (body: { requestId: number; templateTitle: string; retryOf: number }): Promise<SendEmailAgainAnswer> =>
  api.post<SendEmailAgainAnswer>('/send-email', body);
