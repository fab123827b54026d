import type { AccountEmailInput } from '../workflows/account-email.messages';

export interface AccountEmailActivities {
  sendAccountEmail(input: AccountEmailInput): Promise<{ sent: boolean; reason?: string }>;
}
