/** The FAQ pages' rules (spec 1 §5): a FAQ's type, its order among those of its type, the form's field errors. */
import { FAQ_ANSWER_MAX, FAQ_QUESTION_MAX } from './limits';
import { MESSAGES } from './messages';

export const FAQ_TYPES = ['Admin', 'Requester'] as const;
export type FaqType = (typeof FAQ_TYPES)[number];

/**
 * The order a FAQ gets: at least 1, rounded up, capped at the count of FAQs of its type (plus 1 when adding).
 * `undefined` when adding means count + 1. Returns null for a value that is not a number or below 1.
 */
export function faqOrderFor(order: number | string | undefined | null, count: number, adding: boolean): number | null {
  const cap = adding ? count + 1 : Math.max(count, 1);
  if (order === undefined || order === null || order === '') return adding ? cap : null;
  const value = Math.ceil(Number(order));
  if (!Number.isFinite(value) || value < 1) return null;
  return Math.min(value, cap);
}

export const FAQ_ORDER_MESSAGE = 'Order must be a number of at least 1';

export interface FaqInput { type?: string; question?: string; answer?: string; order?: number | string | null }

/** Field errors of a FAQ form (the duplicate-question rule needs the list: the API checks it). */
export function faqErrors(input: FaqInput, adding: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  if (adding && !FAQ_TYPES.includes(input.type as FaqType)) errors.type = MESSAGES.required;
  const question = input.question?.trim() ?? '';
  if (!question) errors.question = MESSAGES.required;
  else if (question.length > FAQ_QUESTION_MAX) errors.question = `Question cannot be longer than ${FAQ_QUESTION_MAX} characters`;
  const answer = input.answer?.trim() ?? '';
  if (!answer) errors.answer = MESSAGES.required;
  else if (answer.length > FAQ_ANSWER_MAX) errors.answer = `Answer cannot be longer than ${FAQ_ANSWER_MAX} characters`;
  if (!adding && (input.order === undefined || input.order === null || input.order === '')) errors.order = MESSAGES.required;
  else if (input.order !== undefined && input.order !== null && input.order !== '' && faqOrderFor(input.order, 1_000_000, true) === null) {
    errors.order = FAQ_ORDER_MESSAGE;
  }
  return errors;
}
