import { api } from '../../../lib/api-client';
import type { SendEmailAccepted } from '../../../../../contract/send-email.schema';
import type { Wire } from '../../../../../contract/wire';

export type SendEmailAgainAnswer = Wire<typeof SendEmailAccepted>;

/**
 * Queues a failed email once more (202 `{ queued: true, templateTitle }`); `retryOf` is the id of the
 * 'Email Failed' audit row, so the server knows which failure this answers.
 */
export const sendEmailAgain = (body: { requestId: number; templateTitle: string; retryOf: number }): Promise<SendEmailAgainAnswer> =>
  api.post<SendEmailAgainAnswer>('/send-email', body);
