/** Input of the account-email workflow, shared by the API (which starts it) and the workflow. No secrets inside. */
export interface AccountEmailInput {
  kind: 'passwordReset';
  /** The password reset row; the activity derives the link's secret from it with the server key. */
  resetId: string;
}

export const ACCOUNT_EMAIL_WORKFLOW = 'accountEmailWorkflow';
/** Workflow id of a reset email: one per reset token, so a repeated start is the same email. */
export const passwordResetEmailWorkflowId = (resetId: string) => `account-email-password-reset-${resetId}`;
