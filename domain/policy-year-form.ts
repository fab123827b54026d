/**
 * The policy year form (spec 1 §5): dates as typed or sent, money, policy number; the overlap message the API uses.
 * Which years cover a request is domain/policy-years.ts.
 */
import { TEXT_INPUT_MAX } from './limits';
import { DESK_MESSAGES, MESSAGES } from './messages';
import { MONEY_MESSAGE, parseMoney } from './money';
import { parseUsDate } from './request-dates';

const POLICY_RANGE_MESSAGE = 'End date cannot be before start date';
export const policyOverlapMessage = (from: string, to: string) =>
  `This policy year overlaps the policy year ${from} – ${to}.`;

export interface PolicyInput { startDate?: string; endDate?: string; policyNumber?: string; limitClaim?: string; annualAggregate?: string }
interface PolicyValues { startDay: string; endDay: string; policyNumber: string; limitClaim: string; annualAggregate: string }

/** A policy date as typed (mm/dd/yyyy) or as sent (ISO): its calendar day, or null. */
function policyDay(text: string | undefined, allowIso = true): string | null {
  const value = text?.trim() ?? '';
  if (allowIso && /^\d{4}-\d{2}-\d{2}T/.test(value)) return value.slice(0, 10);
  return parseUsDate(value);
}

/**
 * Validates a policy form; on success the trimmed values (dates as days, money as "1234.00"). The form takes
 * mm/dd/yyyy only (`typed`); the API also takes the ISO timestamps the form sends.
 */
export function validatePolicy(input: PolicyInput, typed = false): { errors: Record<string, string>; values: PolicyValues | null } {
  const errors: Record<string, string> = {};
  const day = (key: 'startDate' | 'endDate') => {
    if (!input[key]?.trim()) { errors[key] = MESSAGES.required; return null; }
    const parsed = policyDay(input[key], !typed);
    if (!parsed) errors[key] = DESK_MESSAGES.policyDateFormat;
    return parsed;
  };
  const money = (key: 'limitClaim' | 'annualAggregate') => {
    if (!String(input[key] ?? '').trim()) { errors[key] = MESSAGES.required; return null; }
    const parsed = parseMoney(input[key]);
    if (!parsed) errors[key] = MONEY_MESSAGE;
    return parsed;
  };
  const startDay = day('startDate');
  const endDay = day('endDate');
  if (startDay && endDay && endDay < startDay) errors.endDate = POLICY_RANGE_MESSAGE;
  const policyNumber = input.policyNumber?.trim() ?? '';
  if (!policyNumber) errors.policyNumber = MESSAGES.required;
  else if (policyNumber.length > TEXT_INPUT_MAX) errors.policyNumber = `Policy number cannot be longer than ${TEXT_INPUT_MAX} characters`;
  const limitClaim = money('limitClaim');
  const annualAggregate = money('annualAggregate');
  if (Object.keys(errors).length) return { errors, values: null };
  return { errors, values: { startDay: startDay!, endDay: endDay!, policyNumber, limitClaim: limitClaim!, annualAggregate: annualAggregate! } };
}
