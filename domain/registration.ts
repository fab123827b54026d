/**
 * Registration and profile of external requesters (spec 1 §5): the clean-up before sending and the field rules,
 * shared by the form and the API.
 */
import { isEmailAddress } from './email-recipients';
import { cleanMiddleInitial, cleanText } from './form-text';
import { MESSAGES } from './messages';
import { PASSWORD_RULE } from './password-policy';

interface ProfileFields {
  lastName: string;
  firstName: string;
  middleInitial: string;
  company: string;
  phone: string;
  email: string;
}
export interface RegistrationFields extends ProfileFields { password: string }

const PROFILE_TEXT_MAX = 200;
const PHONE_PATTERN = /^\d{3}-\d{3}-\d{4}$/;

/** Strings cleaned (cleanText, and curly double quotes made straight too), middle-initial periods stripped, email lowercased. */
export function cleanProfile<T extends Partial<RegistrationFields>>(fields: T): T {
  const out: Record<string, unknown> = { ...fields };
  for (const [key, value] of Object.entries(out)) {
    if (typeof value === 'string' && key !== 'password') out[key] = cleanText(value.replace(/[\u201C\u201D]/g, '"')) ?? '';
  }
  if (typeof out.middleInitial === 'string') out.middleInitial = cleanMiddleInitial(out.middleInitial) ?? '';
  if (typeof out.email === 'string') out.email = out.email.toLowerCase();
  return out as T;
}

/** 5031231234 → 503-123-1234 while typing (at most 12 characters). */
export function formatPhone(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 10);
  if (digits.length <= 3) return digits;
  if (digits.length <= 6) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** Field messages for cleaned values; `withPassword` when registering. */
export function validateProfile(fields: Partial<RegistrationFields>, withPassword: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const key of ['lastName', 'firstName', 'company', 'phone', 'email'] as const) {
    if (!fields[key]) errors[key] = MESSAGES.required;
  }
  for (const key of ['lastName', 'firstName', 'company', 'email'] as const) {
    if ((fields[key]?.length ?? 0) > PROFILE_TEXT_MAX) errors[key] = `Maximum ${PROFILE_TEXT_MAX} characters`;
  }
  if ((fields.middleInitial?.length ?? 0) > 1) errors.middleInitial = 'Maximum 1 character';
  if (fields.email && !errors.email && !isEmailAddress(fields.email)) errors.email = MESSAGES.invalidEmail;
  if (fields.phone && !PHONE_PATTERN.test(fields.phone)) errors.phone = MESSAGES.phoneFormat;
  if (withPassword) {
    if (!fields.password) errors.password = MESSAGES.required;
    else if (!PASSWORD_RULE.test(fields.password)) errors.password = MESSAGES.passwordRequirements;
  }
  return errors;
}

/**
 * Whether someone changing an external user's email to an address another account holds is told so (spec 2 §8.3:
 * "The email address you provided is already in use.", with advice to use a different email for an edit). An
 * administrator can list every account, so silence would hide nothing from them and only tell them a link went out
 * when none did. A user changing their own address hears what any address gets (the owner is told instead), so the
 * profile page cannot be used to learn who has an account.
 */
export const toldEmailInUse = (changer: { isAdmin: boolean }): boolean => changer.isAdmin;
