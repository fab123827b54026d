/**
 * Renders the fields of one section of a kind's definition (domain/request-kinds.ts): the right control per field
 * kind, shown only while its condition holds, marked required by the same definition the server validates with.
 */
import { Fragment } from 'react';
import {
  isRequiredNow, isShown, TIME_OF_DAY_OPTIONS, type ConditionContext, type FieldDefinition, type PeriodRule, type RequestFormValues,
} from '../../../../../domain';
import { FieldFrame, SelectField, TextAreaField, TextField, fieldId } from '../../../components/ui/form-field';
import type { FormErrors } from './form-section';
import { DATE_INPUT } from './form-section';
import { PeriodPicker } from './period-picker';

export interface DefinitionFieldsProps {
  fields: readonly FieldDefinition[];
  values: RequestFormValues;
  errors: FormErrors;
  ctx: ConditionContext & { isAdmin: boolean };
  onChange: (field: string, value: string | boolean) => void;
  disabled?: boolean;
  /** fields shown but not editable (picked from the directory) */
  readOnly?: ReadonlySet<string>;
  /** the kind's periods: each gets a calendar before its start field */
  periods?: readonly PeriodRule[];
  /** several fields at once (a period's two days); one `onChange` per field when absent */
  onChangeFields?: (changed: RequestFormValues) => void;
}

export function DefinitionFields({ fields, values, errors, ctx, onChange, disabled, readOnly, periods, onChangeFields }: DefinitionFieldsProps) {
  const changeFields = onChangeFields
    ?? ((changed: RequestFormValues) => Object.entries(changed).forEach(([name, value]) => onChange(name, value ?? '')));
  return (
    <>
      {fields.filter((f) => isShown(f, values, ctx)).map((field) => {
        const period = periods?.find((p) => p.from === field.name);
        return (
          <Fragment key={`${field.name}:${field.label}`}>
            {period && <PeriodPicker period={period} values={values} onChange={changeFields} disabled={disabled} />}
            <DefinitionField field={field} value={values[field.name]} error={errors[field.name]}
              required={isRequiredNow(field, values, ctx)} disabled={disabled} readOnly={readOnly?.has(field.name)}
              onChange={(value) => onChange(field.name, value)} />
          </Fragment>
        );
      })}
    </>
  );
}

/** Checkbox labels longer than this are sentences (the rental approval, the claim history authorization). */
const CONFIRMATION_LENGTH = 60;

interface DefinitionFieldProps {
  field: FieldDefinition;
  value: string | boolean | undefined;
  error?: string;
  required: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  onChange: (value: string | boolean) => void;
}

function DefinitionField({ field, value, error, required, disabled, readOnly, onChange }: DefinitionFieldProps) {
  const common = { name: field.name, label: field.label, required, error, hint: field.hint, disabled };
  const text = typeof value === 'string' ? value : '';
  if (readOnly && field.kind === 'select') return <TextField {...common} value={text} readOnly />;
  switch (field.kind) {
    case 'time':
      // Spec 2 §9.1: a time picker in 30-minute steps; a select is keyboard-usable and read well by screen readers.
      return (
        <SelectField {...common} options={TIME_OF_DAY_OPTIONS.map((o) => o.value)} labelOf={timeLabel} placeholder="No time"
          value={text} onChange={(e) => onChange(e.target.value)} />
      );
    case 'select':
      return <SelectField {...common} options={field.options ?? []} value={text} onChange={(e) => onChange(e.target.value)} />;
    case 'textarea':
      return <TextAreaField {...common} rows={3} maxLength={field.maxLength} value={text} onChange={(e) => onChange(e.target.value)} />;
    case 'checkbox':
      return (
        // A confirmation written as a sentence takes the whole row; a short box (admin flags) one column.
        <div className={`field field--checkbox${field.label.length > CONFIRMATION_LENGTH ? ' field--wide' : ''}${error ? ' field--invalid' : ''}`}>
          <label className="checkbox" htmlFor={fieldId(field.name)}>
            <input id={fieldId(field.name)} name={field.name} type="checkbox" checked={value === true} disabled={disabled}
              aria-invalid={error ? true : undefined} aria-describedby={error ? `${fieldId(field.name)}-error` : undefined}
              onChange={(e) => onChange(e.target.checked)} />
            {' '}{field.label}{required && <span className="field__required" aria-hidden="true"> *</span>}
          </label>
          {error && <p id={`${fieldId(field.name)}-error`} className="error-text">{error}</p>}
        </div>
      );
    case 'yesNo':
      return (
        <FieldFrame {...common} name={`${field.name}-group`}>
          <div role="radiogroup" aria-labelledby={`${fieldId(`${field.name}-group`)}-legend`} className="radio-row"
            aria-invalid={error ? true : undefined} aria-describedby={error ? `${fieldId(`${field.name}-group`)}-error` : undefined}>
            <span id={`${fieldId(`${field.name}-group`)}-legend`} className="sr-only">{field.label}</span>
            {(field.options ?? []).map((option, i) => (
              <label key={option} className="radio">
                <input type="radio" name={field.name} value={option} checked={value === option} disabled={disabled}
                  id={i === 0 ? fieldId(`${field.name}-group`) : undefined}
                  onChange={() => onChange(option)} /> {option}
              </label>
            ))}
          </div>
        </FieldFrame>
      );
    default: {
      const extra = field.kind === 'date' ? DATE_INPUT
        : field.kind === 'email' ? { type: 'email', autoComplete: 'off' }
          : field.kind === 'phone' ? { type: 'tel', placeholder: '503-123-1234' }
            : field.kind === 'year' ? { inputMode: 'numeric' as const } : {};
      return <TextField {...common} {...extra} maxLength={field.maxLength} value={text} readOnly={readOnly}
        onChange={(e) => onChange(field.kind === 'phone' ? formatPhone(e.target.value) : e.target.value)} />;
    }
  }
}

const timeLabel = (value: string) => TIME_OF_DAY_OPTIONS.find((o) => o.value === value)?.label ?? value;

/** 5031231234 → 503-123-1234 while typing (spec 1 §5), at most 12 characters. */
export function formatPhone(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 10);
  if (digits.length <= 3) return digits;
  if (digits.length <= 6) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}
