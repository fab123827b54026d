/**
 * Claim History and Insurance Verification request: its form fields and their rules (spec 1 §5 "Request form").
 */
import { invalidAddresses, isEmailAddress } from './email-recipients';
import { MESSAGES } from './messages';
import { CLAIM_HISTORY_PROVIDER_TYPES, CLAIM_HISTORY_REASONS, US_STATES } from './reference-lists';
import { parseUsDate, validateRequestPeriod } from './request-dates';

export const TEXT_MAX = 200;
export const MIDDLE_INITIAL_MAX = 1;
export const LICENSING_REASON = 'Licensing in another state';

/** The credentialing form as typed (dates as mm/dd/yyyy). */
export interface CredentialingForm {
  lastName?: string;
  firstName?: string;
  middleInitial?: string;
  altName?: string;
  email?: string;
  birthDate?: string;
  dateFrom?: string;
  dateTo?: string;
  providerType?: string;
  reason?: string;
  licensingState?: string;
  facilityName?: string;
  recipientEmail?: string;
  /** further addresses, split on spaces, semicolons and commas (spec 2 §7.9) */
  addlRecipients?: string;
}

export type FieldErrors = Partial<Record<keyof CredentialingForm | 'documents', string>>;

export interface CredentialingContext {
  /** External requesters must give the clinician's birth date (spec 1 §6). */
  isExternal: boolean;
  /** Today's calendar day, yyyy-mm-dd. */
  today: string;
  /** Supporting documents attached so far. */
  documentCount: number;
}


/** Spec 2 §5: trimmed, curly apostrophes made straight, empty values dropped. */
export function cleanText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cleaned = value.replace(/[\u2018\u2019]/g, "'").trim();
  return cleaned === '' ? undefined : cleaned;
}

export function cleanForm<T extends object>(form: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    const cleaned = typeof value === 'string' ? cleanText(value) : value;
    if (cleaned !== undefined && cleaned !== null) out[key] = cleaned;
  }
  return out as T;
}

/** Errors that block submission; an empty object means the request may be submitted. */
export function validateCredentialingForm(raw: CredentialingForm, ctx: CredentialingContext): FieldErrors {
  const form = cleanForm(raw);
  const errors: FieldErrors = {};
  const required = (key: keyof CredentialingForm) => { if (!form[key]) errors[key] = MESSAGES.required; };
  required('lastName');
  required('firstName');
  for (const key of ['lastName', 'firstName', 'altName', 'facilityName', 'email', 'recipientEmail'] as const) {
    if ((form[key]?.length ?? 0) > TEXT_MAX) errors[key] = `Maximum ${TEXT_MAX} characters`;
  }
  if ((form.middleInitial?.replace(/\./g, '').length ?? 0) > MIDDLE_INITIAL_MAX) errors.middleInitial = `Maximum ${MIDDLE_INITIAL_MAX} character`;
  if (form.birthDate) {
    if (!parseUsDate(form.birthDate)) errors.birthDate = MESSAGES.requestDateFormat;
  } else if (ctx.isExternal) errors.birthDate = MESSAGES.required;
  Object.assign(errors, validateRequestPeriod(form.dateFrom, form.dateTo, ctx.today));
  if (!form.providerType) required('providerType');
  else if (!(CLAIM_HISTORY_PROVIDER_TYPES as readonly string[]).includes(form.providerType)) errors.providerType = MESSAGES.fieldValidation;
  if (!form.reason) required('reason');
  else if (!(CLAIM_HISTORY_REASONS as readonly string[]).includes(form.reason)) errors.reason = MESSAGES.fieldValidation;
  if (form.reason === LICENSING_REASON) {
    if (!form.licensingState) errors.licensingState = MESSAGES.required;
    else if (!(US_STATES as readonly string[]).includes(form.licensingState)) errors.licensingState = MESSAGES.fieldValidation;
  }
  for (const key of ['email', 'recipientEmail'] as const) {
    if (form[key] && !isEmailAddress(form[key]!)) errors[key] = MESSAGES.invalidEmail;
  }
  // Drafts keep whatever was typed (autosave loses nothing); a submitted request only names real addresses.
  if (invalidAddresses(form.addlRecipients).length) errors.addlRecipients = MESSAGES.invalidEmail;
  if (ctx.documentCount < 1) errors.documents = MESSAGES.requiredDocuments;
  return errors;
}

export const hasErrors = (errors: object): boolean => Object.keys(errors).length > 0;
