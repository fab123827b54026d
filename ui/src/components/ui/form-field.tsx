/**
 * Labelled form controls: label above the input (label htmlFor), hint and error below, `name` equal to the field
 * name, `aria-invalid` on errors so the form can scroll to the first invalid field.
 */
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

interface FieldFrameProps {
  name: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}

export const fieldId = (name: string) => `field-${name}`;

const describedBy = (name: string, hint: unknown, error: unknown) =>
  [hint ? `${fieldId(name)}-hint` : '', error ? `${fieldId(name)}-error` : ''].filter(Boolean).join(' ') || undefined;

export function FieldFrame({ name, label, required, hint, error, children }: FieldFrameProps) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <div className="field__label-row">
        <label htmlFor={fieldId(name)} className="field__label">{label}</label>
        {required && <span className="field__required" aria-hidden="true">*</span>}
      </div>
      {children}
      {hint && <p id={`${fieldId(name)}-hint`} className="field__hint">{hint}</p>}
      {error && <p id={`${fieldId(name)}-error`} className="error-text">{error}</p>}
    </div>
  );
}

type ControlProps = Omit<FieldFrameProps, 'children'>;

export function TextField({ name, label, required, hint, error, ...input }: ControlProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame name={name} label={label} required={required} hint={hint} error={error}>
      <input
        id={fieldId(name)}
        name={name}
        type="text"
        className="field__control"
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(name, hint, error)}
        {...input}
      />
    </FieldFrame>
  );
}

interface SelectFieldProps extends ControlProps, Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name'> {
  options: readonly string[];
  placeholder?: string;
  /** what an option shows, when not its value (a time `13:30` shows `1:30 PM`) */
  labelOf?: (option: string) => string;
}

export function SelectField({ name, label, required, hint, error, options, placeholder = 'Select…', labelOf, ...select }: SelectFieldProps) {
  return (
    <FieldFrame name={name} label={label} required={required} hint={hint} error={error}>
      <select
        id={fieldId(name)}
        name={name}
        className="field__control"
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(name, hint, error)}
        {...select}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => <option key={option} value={option}>{labelOf ? labelOf(option) : option}</option>)}
      </select>
    </FieldFrame>
  );
}

export function TextAreaField({ name, label, required, hint, error, ...textarea }: ControlProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame name={name} label={label} required={required} hint={hint} error={error}>
      <textarea
        id={fieldId(name)}
        name={name}
        className="field__control"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, hint, error)}
        {...textarea}
      />
    </FieldFrame>
  );
}
