/**
 * Account emails (password reset link). The API never sends mail: it starts this workflow with an id derived from
 * the reset token id, so the same token is never emailed by two workflows, and the activity renders and sends.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { AccountEmailActivities } from './account-email-activities.types';
import type { AccountEmailInput } from './account-email.messages';

const { sendAccountEmail } = proxyActivities<AccountEmailActivities>({
  startToCloseTimeout: '30 seconds',
  // Transient failures are waited out for the life of the link (worker/retry-window.ts): a link sent later would
  // arrive dead.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export async function accountEmailWorkflow(input: AccountEmailInput): Promise<void> {
  await sendAccountEmail(input);
}
