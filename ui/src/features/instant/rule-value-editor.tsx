/**
 * The value of one condition, by the field's type in domain/instant-rules.ts: a choice picks one of its options
 * (several for "is one of"/"is none of", kept as an array), a number is typed, a checkbox is ticked or not, text is
 * typed (several values separated by commas). "is empty"/"is not empty" take no value.
 */
import type { ChangeEvent } from 'react';
import type { ValueEditorProps } from 'react-querybuilder';
import { formatTimeOfDay, ruleFieldOf } from '../../../../domain';
import { positionOf } from './builder-controls';

const TIME = /^\d\d:\d\d$/;
const optionLabel = (option: string) => (TIME.test(option) ? formatTimeOfDay(option) : option);
const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String)
  : typeof value === 'string' && value ? value.split(',').map((v) => v.trim()).filter(Boolean) : []);
const isList = (operator: string) => operator === 'in' || operator === 'notIn';

/** The value a condition starts with when its field or comparison changes. */
export function defaultValueOf(rule: { field: string; operator: string }): unknown {
  const field = ruleFieldOf(rule.field);
  if (!field) return '';
  if (isList(rule.operator)) return [];
  if (field.type === 'boolean') return false;
  if (field.type === 'choice') return field.options?.[0] ?? '';
  return '';
}

/** A typed number is kept as a number; what is not one yet stays as typed, for the server to name. */
const numberOf = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

export function RuleValueEditor({ field, operator, value, handleOnChange, path, disabled }: ValueEditorProps) {
  const rule = ruleFieldOf(field);
  if (!rule || operator === 'null' || operator === 'notNull') return null;
  const label = `Value of condition ${positionOf(path)}`;
  const className = 'field__control instant-value';

  if (rule.type === 'boolean') {
    return (
      <label className="checkbox instant-value">
        <input type="checkbox" checked={value === true} disabled={disabled} aria-label={`${label}: ticked`}
          onChange={(e) => handleOnChange(e.target.checked)} />
        <span aria-hidden="true">Ticked</span>
      </label>
    );
  }
  if (rule.type === 'choice' && rule.options) {
    if (isList(operator)) {
      const chosen = listOf(value);
      const pick = (e: ChangeEvent<HTMLSelectElement>) => handleOnChange([...e.target.selectedOptions].map((o) => o.value));
      return (
        <select multiple className={`${className} instant-value--multiple`} aria-label={label} value={chosen} disabled={disabled} onChange={pick}
          size={Math.min(6, rule.options.length)}>
          {rule.options.map((o) => <option key={o} value={o}>{optionLabel(o)}</option>)}
        </select>
      );
    }
    return (
      <select className={className} aria-label={label} value={String(value ?? '')} disabled={disabled} onChange={(e) => handleOnChange(e.target.value)}>
        {rule.options.map((o) => <option key={o} value={o}>{optionLabel(o)}</option>)}
      </select>
    );
  }
  if (rule.type === 'number') {
    return (
      <input type="text" inputMode="numeric" className={`${className} field__control--short`} aria-label={label} value={String(value ?? '')}
        disabled={disabled} onChange={(e) => handleOnChange(numberOf(e.target.value))} />
    );
  }
  return (
    <input type="text" className={className} aria-label={isList(operator) ? `${label} (separate values with commas)` : label} disabled={disabled}
      value={Array.isArray(value) ? value.join(', ') : String(value ?? '')} onChange={(e) => handleOnChange(e.target.value)} />
  );
}
