/**
 * Activity signatures of the account-email workflow. Declared beside the workflow that calls them;
 * activities/ implements them and imports this file, workflows/ never imports activities/ (the sandbox loads no
 * activity code, and the two folders do not import each other).
 */
import type { AccountEmailInput } from './account-email.messages';

export interface AccountEmailActivities {
  sendAccountEmail(input: AccountEmailInput): Promise<{ sent: boolean; reason?: string }>;
}
