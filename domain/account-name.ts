/** The name audit rows, messages and emails show for an account: first and last name, else its address. */
export const accountDisplayName = (account: { firstName: string; lastName: string; email: string }): string =>
  `${account.firstName} ${account.lastName}`.trim() || account.email;
