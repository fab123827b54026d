/**
 * Addresses a registered (password) account may not take, so that administrators exist only on the university's
 * word: the university's own domains (UNIVERSITY_EMAIL_DOMAINS) and every address on the admin list. Their owners sign in
 * through single sign-on; a password account holding one would borrow an identity the university vouches for.
 */

/** Lowercased domains, without a leading `@` or dot; blanks dropped. */
export function cleanEmailDomains(domains: readonly string[]): string[] {
  return [...new Set(domains.map((d) => d.trim().toLowerCase().replace(/^[@.]+/, '')).filter(Boolean))];
}

/** Whether `email` is at one of `domains` or a subdomain of one (students.ohsu.example is ohsu.example's). */
export function isUniversityAddress(email: string, domains: readonly string[]): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const host = email.slice(at + 1).trim().toLowerCase().replace(/\.$/, '');
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/** The refusal of such an address at registration and on an email change (field `email`). */
export const UNIVERSITY_ADDRESS_MESSAGE =
  'This address belongs to the university. Employees and students sign in with university single sign-on '
  + '(Sign in with university single sign-on on the Login page); it cannot be used for a registered account.';
