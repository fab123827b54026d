/**
 * Account emails (password reset link). The API never sends mail: it starts this workflow with an id derived from
 * the reset token id, so the same token is never emailed by two workflows, and the activity renders and sends.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { AccountEmailActivities } from '../activities/account-email.types';
import type { AccountEmailInput } from './account-email.messages';

const { sendAccountEmail } = proxyActivities<AccountEmailActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

export async function accountEmailWorkflow(input: AccountEmailInput): Promise<void> {
  await sendAccountEmail(input);
}
