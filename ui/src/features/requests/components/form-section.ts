/** Messages by field name (form fields plus `documents`), from the domain rules or the server. */
export type FormErrors = Record<string, string | undefined>;

/** Typed dates: mm/dd/yyyy text inputs. */
export const DATE_INPUT = { placeholder: 'mm/dd/yyyy', inputMode: 'numeric', maxLength: 10, autoComplete: 'off' } as const;
