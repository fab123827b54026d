import type { ChangeEvent } from 'react';
import type { CredentialingForm } from '../../../../../domain';

/** Messages by field name (form fields plus `documents`), from the domain rules or the server. */
export type FormErrors = Record<string, string | undefined>;

export interface FormSectionProps {
  form: CredentialingForm;
  errors: FormErrors;
  onChange: (field: keyof CredentialingForm, value: string) => void;
  disabled?: boolean;
}

/** Props that tie one control to one form field: name, value, error and change handler. */
export function bindField({ form, errors, onChange, disabled }: FormSectionProps, field: keyof CredentialingForm) {
  return {
    name: field,
    value: form[field] ?? '',
    error: errors[field],
    disabled,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => onChange(field, event.target.value),
  };
}

/** Typed dates: mm/dd/yyyy text inputs. */
export const DATE_INPUT = { placeholder: 'mm/dd/yyyy', inputMode: 'numeric', maxLength: 10, autoComplete: 'off' } as const;
