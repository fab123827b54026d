/**
 * Activity signatures of the inbound-mail workflow (mail-in/processing/ implements them).
 */
import type { InboundMailInput, InboundOutcome } from './inbound-mail.messages';

export interface InboundProcessResult { outcome: InboundOutcome; answerOwed: boolean }

export interface InboundMailActivities {
  /**
   * Reads the stored message and decides: posted (discussion row, attachments as documents, the request workflow's
   * `discussionPosted` update), refused or ignored. Idempotent: a row already decided answers its decision.
   */
  processInboundMessage(input: InboundMailInput): Promise<InboundProcessResult>;
  /** The one short answer to a refused sender; sends nothing when it was already sent. */
  answerInboundMessage(input: InboundMailInput): Promise<{ sent: boolean }>;
}
