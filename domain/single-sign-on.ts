/**
 * University single sign-on (SAML, spec 2 §7.2): the one place for the attributes the identity provider
 * releases, how they map onto an internal user (spec 1 §3 User: entityId, affiliation {product}, personType Employee or
 * Student, email, names), and the codes and messages of a refused sign-in. The API's assertion consumer and the
 * development identity provider both use these names; the login page shows the messages.
 */
import { MESSAGES } from './messages';
import { PRODUCT_NAME } from './reference-lists';

/**
 * The attributes the identity provider must release, named by their standard OIDs (eduPerson / inetOrgPerson, what
 * Shibboleth and most university IdPs release under these names by default).
 */
export const SAML_ATTRIBUTES = {
  employeeId: 'urn:oid:2.16.840.1.113730.3.1.3', // employeeNumber
  email: 'urn:oid:0.9.2342.19200300.100.1.3', // mail
  firstName: 'urn:oid:2.5.4.42', // givenName
  lastName: 'urn:oid:2.5.4.4', // sn
  middleInitial: 'urn:oid:2.5.4.43', // initials (optional)
  affiliation: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.1', // eduPersonAffiliation (multi-valued)
} as const;

/** The user's kind as the spec names it (spec 1 §3 User.personType). */
type SsoPersonType = 'Employee' | 'Student';

/**
 * eduPersonAffiliation values (or the spec's own words) → person type. Anyone the university employs is an
 * Employee, also when they study too; student only is a Student. Nothing recognisable: null (refused).
 */
function personTypeFromAffiliation(values: readonly string[]): SsoPersonType | null {
  const lower = values.map((v) => v.trim().toLowerCase());
  if (lower.some((v) => ['employee', 'staff', 'faculty'].includes(v))) return 'Employee';
  if (lower.includes('student')) return 'Student';
  return null;
}

/** What an accepted assertion says about the person, ready to create or update the user. */
export interface SsoIdentity {
  entityId: string;
  email: string;
  firstName: string;
  lastName: string;
  middleInitial: string | null;
  personType: SsoPersonType;
  affiliation: typeof PRODUCT_NAME;
}

type AttributeValues = Record<string, unknown>;

const values = (attributes: AttributeValues, name: string): string[] => {
  const raw = attributes[name];
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return list.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean);
};

/** Maps released attributes to an identity; null names the first attribute that is missing or unusable. */
export function identityFromAttributes(attributes: AttributeValues):
  { identity: SsoIdentity; missing: null } | { identity: null; missing: string } {
  const one = (key: keyof typeof SAML_ATTRIBUTES) => values(attributes, SAML_ATTRIBUTES[key])[0] ?? '';
  const entityId = one('employeeId');
  const email = one('email').toLowerCase();
  const firstName = one('firstName');
  const lastName = one('lastName');
  const personType = personTypeFromAffiliation(values(attributes, SAML_ATTRIBUTES.affiliation));
  const required = { employeeId: entityId, email: /^[^\s@]+@[^\s@]+$/.test(email) ? email : '', firstName, lastName };
  for (const [key, value] of Object.entries(required)) if (!value) return { identity: null, missing: key };
  if (!personType) return { identity: null, missing: 'affiliation' };
  const initial = one('middleInitial');
  return {
    identity: {
      entityId, email, firstName, lastName, personType, affiliation: PRODUCT_NAME,
      middleInitial: initial ? initial.slice(0, 1).toUpperCase() : null,
    },
    missing: null,
  };
}

/** Why a single sign-on was refused: the code travels to the login page in the URL hash (`#error=<code>`). */
export const SSO_ERRORS = {
  notConfigured: 'Single sign-on is not configured on this server. Please contact a system administrator.',
  providerUnavailable: 'The university sign-in service could not be reached. Please try again in a few minutes.',
  signature: 'The sign-in answer was not signed by the university sign-in service and was refused. Please sign in again.',
  expired: 'The sign-in answer has expired. Please sign in again.',
  audience: 'The sign-in answer was meant for another application and was refused. Please sign in again.',
  replayed: 'This sign-in answer was already used. Please sign in again.',
  otherBrowser: 'The sign-in did not start in this browser, so it was refused. Please sign in again from here.',
  attributes: 'The university sign-in service did not send your employee id, email, name and affiliation. Please contact a system administrator.',
  inactiveUser: MESSAGES.inactiveUser,
  failed: 'Single sign-on did not succeed. Please sign in again.',
} as const;
export type SsoErrorCode = keyof typeof SSO_ERRORS;

/** The message for a code from the URL; an unknown code gets the general message (never the raw text). */
export const ssoErrorMessage = (code: string): string =>
  Object.hasOwn(SSO_ERRORS, code) ? SSO_ERRORS[code as SsoErrorCode] : SSO_ERRORS.failed;

/**
 * Single sign-on hands the session token to the login page in the address fragment (`#access_token=…&handoff=<mark>`)
 * and sets this short-lived cookie to the same random mark in the browser that finished the sign-in. The page adopts
 * the token at once only when the two agree; a crafted `/login#access_token=` link carries no such cookie, so the page
 * asks "Continue as …?" first (login CSRF).
 */
export const SSO_HANDOFF_COOKIE = 'coi_sso_handoff';
