/**
 * WHO IS AN ADMINISTRATOR (the one place; api/sessions/session-user.ts asks it on every call).
 *
 * The admin list (spec 2 §7.11) names addresses; an address grants the rights only to an account the university
 * vouches for. A registered (external) account is never an administrator: its address is proven only by a link its
 * owner may click without reading (an attacker chooses the names the link's email greets them with). In production
 * only an internal account that signs in through single sign-on qualifies, that is one without a password (the
 * university's sign-on and its second factor are its only way in). Development and tests also accept an internal
 * account with a password: the seeded administrator (db/seed-data.ts DEV_ADMIN), which production never seeds.
 */
export interface AdministratorCandidate {
  /** the account's email is on the admin list (case-insensitive) */
  onAdminList: boolean;
  /** the account proved its email (a confirmation link or single sign-on) */
  emailConfirmed: boolean;
  isExternal: boolean;
  /** the account can sign in with a password */
  hasPassword: boolean;
}

export interface AdministratorPolicy {
  /** NODE_ENV=production: password accounts never hold administrator rights */
  production: boolean;
}

export function holdsAdministratorRights(account: AdministratorCandidate, policy: AdministratorPolicy): boolean {
  if (!account.onAdminList || !account.emailConfirmed || account.isExternal) return false;
  return !account.hasPassword || !policy.production;
}
