/**
 * Starts the account-email workflow (password resets, email confirmations and change notices): the API never sends
 * mail itself. The workflow id is derived from the token row, so a repeated start is the same email.
 */
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { AppConfig } from '../../config/app-config';
import { ACCOUNT_EMAIL_WORKFLOW, type AccountEmailInput } from '../../workflows/account-email.messages';
import { unavailable } from '../refusals';

export async function startAccountEmail(temporal: Client, config: AppConfig, workflowId: string, input: AccountEmailInput): Promise<void> {
  try {
    await temporal.workflow.start(ACCOUNT_EMAIL_WORKFLOW, { taskQueue: config.taskQueue, workflowId, args: [input] });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    throw unavailable('The email could not be queued; please try again.');
  }
}
