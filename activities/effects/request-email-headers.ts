/**
 * The headers that thread a request's email and, when it invites an answer, let the recipient answer it by email
 * (domain/reply-address.ts says which emails do and the address's form; services/reply-token.ts signs the token).
 */
import type { AppConfig } from '../../config/app-config';
import { issueReplyToken } from '../../services/reply-token';
import { formatReplyAddress, invitesAnswer, senderName, threadRootId } from '../../domain/reply-address';

export interface RequestEmailHeaders {
  replyTo?: { name: string; address: string };
  inReplyTo?: string;
  references?: string[];
}

/**
 * For one email about request `requestNumber` to `recipient`: In-Reply-To and References name the request's thread
 * root; Reply-To is `<local>+<token>@<domain>` with a token issued to that recipient, when the email invites an answer
 * and a reply domain is set. No request number (a draft's email): nothing.
 */
export function requestEmailHeaders(
  config: Pick<AppConfig, 'reply' | 'mailFrom'>,
  email: { requestNumber: number | null; templateTitle: string; recipient: string },
  now: Date = new Date(),
): RequestEmailHeaders {
  if (!email.requestNumber) return {};
  const root = threadRootId(email.requestNumber, config.reply.messageIdDomain);
  const headers: RequestEmailHeaders = { inReplyTo: root, references: [root] };
  if (config.reply.domain && invitesAnswer({ about: 'request', templateTitle: email.templateTitle })) {
    const token = issueReplyToken({ requestNumber: email.requestNumber, recipient: email.recipient }, config.reply.tokenKey, now);
    headers.replyTo = { name: senderName(config.mailFrom), address: formatReplyAddress(config.reply.local, token, config.reply.domain) };
  }
  return headers;
}
