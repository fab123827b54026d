/** Input of the account-email workflow, shared by the API (which starts it) and the workflow. No secrets inside. */
export type AccountEmailInput =
  /** The password reset row; the activity derives the link's secret from it with the server key. */
  | { kind: 'passwordReset'; resetId: string }
  /** An email-confirmation row: the link goes to the address it confirms. */
  | { kind: 'emailConfirmation'; confirmationId: string }
  /** Tells the address in force that a change to another was asked for (the link itself goes to the new one). */
  | { kind: 'emailChangeNotice'; confirmationId: string; oldEmail: string }
  /**
   * Another account asked for an address this one already holds: its owner is told instead of being sent a link
   * (the asker hears the same answer either way). Sent under the confirmation's workflow id.
   */
  | { kind: 'emailInUseNotice'; confirmationId: string };

export const ACCOUNT_EMAIL_WORKFLOW = 'accountEmailWorkflow';
/** Workflow id of a reset email: one per reset token, so a repeated start is the same email. */
export const passwordResetEmailWorkflowId = (resetId: string) => `account-email-password-reset-${resetId}`;
/** Workflow ids of a confirmation link and of its change notice: one each per confirmation row. */
export const emailConfirmationWorkflowId = (confirmationId: string) => `account-email-confirmation-${confirmationId}`;
export const emailChangeNoticeWorkflowId = (confirmationId: string) => `account-email-change-notice-${confirmationId}`;
