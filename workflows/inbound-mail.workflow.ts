/**
 * One received email (stored before it was accepted): process it, then answer a refused sender once. The workflow id
 * derives from the message, so a second delivery or a restart's sweep joins the same run or finds it done; a worker
 * killed mid-way is retried by Temporal on another, and the activities find what the first attempt wrote.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { InboundMailActivities } from './inbound-mail-activities.types';
import type { InboundMailInput, InboundOutcome } from './inbound-mail.messages';

const { processInboundMessage, answerInboundMessage } = proxyActivities<InboundMailActivities>({
  // A worker killed mid-activity is noticed after this long, and another attempt runs: short, as a reply is
  // expected in the discussion within seconds (parsing a message at the size limit takes well under a second).
  startToCloseTimeout: '30 seconds',
  // Short waits: what fails here is mostly brief (a request workflow busy with a burst of replies, a worker restart).
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 1.5, maximumInterval: '10 seconds' },
});

export async function inboundMailWorkflow(input: InboundMailInput): Promise<InboundOutcome> {
  const { outcome, answerOwed } = await processInboundMessage(input);
  if (answerOwed) await answerInboundMessage(input);
  return outcome;
}
