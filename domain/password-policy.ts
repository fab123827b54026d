/** Password rules of spec 1 §5 and the 180-day expiry of external users' passwords (spec 2 §9.1). */
const PASSWORD_EXPIRY_DAYS = 180;
export const PASSWORD_RULE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*[^a-zA-Z]).{8,}$/;
export const PASSWORD_HELP =
  'Must be a minimum of 8 characters and contain an uppercase letter, a lowercase letter, and either a number or special character.';

export function isPasswordExpired(user: { isExternal: boolean; pswdResetAt: string | null }, now: Date): boolean {
  if (!user.isExternal || !user.pswdResetAt) return false;
  return now.getTime() - new Date(user.pswdResetAt).getTime() > PASSWORD_EXPIRY_DAYS * 24 * 3600 * 1000;
}
