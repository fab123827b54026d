/**
 * Claim History and Insurance Verification request: its form fields and their rules (spec 1 §5 "Request form").
 */
/* Its rules are declared in domain/request-kinds.ts (CREDENTIALING_KIND) and checked by domain/request-rules.ts. */

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

export const hasErrors = (errors: object): boolean => Object.keys(errors).length > 0;
