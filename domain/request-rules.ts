/**
 * The field rules of every request kind, compiled from its declarative definition (domain/request-kinds.ts) into
 * a JSON Schema checked by ajv, with ajv-errors giving the spec's messages. The API validates a submit with
 * `validateRequestForm`; the UI marks fields with the same call. Periods (start not after end) are declared on
 * the kind and checked here after the schema.
 *
 * Not re-exported by domain/index.ts: the workflow sandbox must not load ajv (it compiles with `new Function`).
 */
import { Ajv, type ErrorObject, type SchemaObject } from 'ajv';
import ajvErrors from 'ajv-errors';
import { EMAIL_PATTERN } from './email-recipients';
import { cleanMiddleInitial, cleanText } from './form-text';
import { MESSAGES } from './messages';
import {
  fieldsOf, requestKindOf, type Condition, type ConditionContext,
  type FieldDefinition, type RequestFormValues, type RequestKindDefinition,
} from './request-kinds';
import { DATE_RANGE_MESSAGES, EARLIEST_REQUEST_DAY, parseUsDate } from './request-dates';
import { TIME_OF_DAY_PATTERN } from './time-of-day';

type FieldErrors = Record<string, string>;

export interface ValidationContext extends ConditionContext {
  /** today's calendar day, yyyy-mm-dd (never read from a clock here) */
  today: string;
  /** supporting documents attached so far */
  documentCount: number;
}

const ajv = new Ajv({ allErrors: true, strict: false });
(ajvErrors as unknown as (a: Ajv) => Ajv)(ajv);
ajv.addFormat('us-date', { type: 'string', validate: (text: string) => parseUsDate(text) !== null });
/** An email list holds at most N addresses (split as the mailer splits it: domain/email-recipients.ts). */
ajv.addKeyword({
  keyword: 'maxAddresses', type: 'string', schemaType: 'number', errors: true,
  validate: (max: number, text: string) => text.split(/[\s;,]+/).filter(Boolean).length <= max,
});

const EMAIL_SOURCE = EMAIL_PATTERN.source.replace(/^\^|\$$/g, '');
const RULES: Record<FieldDefinition['kind'], (f: FieldDefinition) => SchemaObject> = {
  text: () => ({ type: 'string' }),
  textarea: () => ({ type: 'string' }),
  email: () => ({ type: 'string', pattern: EMAIL_PATTERN.source }),
  emailList: () => ({ type: 'string', pattern: `^[\\s;,]*(?:${EMAIL_SOURCE.replace(/\\s/g, '\\s;,')}[\\s;,]*)*$` }),
  phone: () => ({ type: 'string', pattern: '^\\d{3}-\\d{3}-\\d{4}$' }),
  date: () => ({ type: 'string', format: 'us-date' }),
  time: () => ({ type: 'string', pattern: TIME_OF_DAY_PATTERN }),
  select: (f) => ({ type: 'string', enum: [...(f.options ?? [])] }),
  yesNo: (f) => ({ type: 'string', enum: [...(f.options ?? [])] }),
  checkbox: (f) => (f.required ? { type: 'boolean', const: true } : { type: 'boolean' }),
  year: () => ({ type: 'string', pattern: '^(19|20)\\d{2}$' }),
  vin: () => ({ type: 'string', pattern: '^[A-HJ-NPR-Za-hj-npr-z0-9]{17}$' }),
};

/** One field's rule with its messages. */
function ruleOf(field: FieldDefinition): SchemaObject {
  const rule: SchemaObject = { ...RULES[field.kind](field) };
  const ruleMessage = field.ruleMessage ?? MESSAGES.fieldValidation;
  const messages: Record<string, string> = { type: MESSAGES.fieldValidation };
  if (field.maxLength) {
    rule.maxLength = field.maxLength;
    messages.maxLength = field.name === 'middleInitial' ? ruleMessage : `Maximum ${field.maxLength} characters`;
  }
  if (field.kind === 'emailList' && field.maxItems) {
    rule.maxAddresses = field.maxItems;
    messages.maxAddresses = field.maxItemsMessage ?? ruleMessage;
  }
  for (const keyword of ['pattern', 'format', 'enum', 'const']) if (keyword in rule) messages[keyword] = ruleMessage;
  return { ...rule, errorMessage: messages };
}

function conditionSchema(condition: Condition, ctx: ConditionContext): SchemaObject {
  if ('context' in condition) return ctx[condition.context] ? {} : { not: {} };
  if ('all' in condition) return { allOf: condition.all.map((c) => conditionSchema(c, ctx)) };
  return { properties: { [condition.field]: { enum: [...condition.equals] } }, required: [condition.field] };
}

/** The JSON Schema of a kind's form (for one caller context: whether the requester is external). */
export function formSchemaOf(kind: RequestKindDefinition, ctx: ConditionContext): SchemaObject {
  const allOf: SchemaObject[] = fieldsOf(kind).map((field) => {
    const own: SchemaObject = { properties: { [field.name]: ruleOf(field) } };
    if (field.required === true) {
      own.required = [field.name];
      own.errorMessage = { required: { [field.name]: MESSAGES.required } };
    } else if (typeof field.required === 'object') {
      own.if = conditionSchema(field.required, ctx);
      own.then = { required: [field.name], errorMessage: { required: { [field.name]: MESSAGES.required } } };
    }
    return field.visibleWhen ? { if: conditionSchema(field.visibleWhen, ctx), then: own } : own;
  });
  if (kind.documents.required) {
    allOf.push({
      properties: { documentCount: { type: 'integer', minimum: 1, errorMessage: MESSAGES.requiredDocuments } },
      required: ['documentCount'],
    });
  }
  return { $id: `request-form:${kind.key}:${ctx.isExternal ? 'external' : 'internal'}`, type: 'object', allOf };
}

const compiled = new Map<string, ReturnType<Ajv['compile']>>();
function validatorOf(kind: RequestKindDefinition, ctx: ConditionContext) {
  const key = `${kind.key}:${ctx.isExternal}`;
  let validate = compiled.get(key);
  if (!validate) {
    const { $id: _id, ...schema } = formSchemaOf(kind, ctx);
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

function fieldOfError(error: ErrorObject): string | undefined {
  const inner = error.keyword === 'errorMessage' ? (error.params as { errors: ErrorObject[] }).errors[0] : error;
  if (inner.keyword === 'required') return (inner.params as { missingProperty: string }).missingProperty;
  return inner.instancePath.split('/')[1] || undefined;
}

/** A whole form cleaned per spec 2 §5 (domain/form-text.ts: cleanText, cleanMiddleInitial); empty values dropped. */
export function cleanFormValues(form: RequestFormValues): RequestFormValues {
  const out: RequestFormValues = {};
  for (const [key, value] of Object.entries(form)) {
    if (typeof value === 'string') {
      const cleaned = key === 'middleInitial' ? cleanMiddleInitial(value) : cleanText(value);
      if (cleaned !== undefined) out[key] = cleaned;
    } else if (typeof value === 'boolean') out[key] = value;
  }
  return out;
}

/** Errors that block submission, one message per field (`documents` for the document rule); empty when none. */
export function validateRequestForm(kind: RequestKindDefinition, raw: RequestFormValues, ctx: ValidationContext): FieldErrors {
  const form = cleanFormValues(raw);
  const validate = validatorOf(kind, ctx);
  const errors: FieldErrors = {};
  if (!validate({ ...form, documentCount: ctx.documentCount })) {
    for (const error of validate.errors ?? []) {
      if (error.keyword === 'if') continue;
      const field = fieldOfError(error);
      if (!field) continue;
      const name = field === 'documentCount' ? 'documents' : field;
      errors[name] ??= error.keyword === 'errorMessage' ? error.message ?? MESSAGES.fieldValidation : MESSAGES.fieldValidation;
    }
  }
  for (const period of kind.periods) {
    const from = typeof form[period.from] === 'string' ? parseUsDate(form[period.from] as string) : null;
    const to = typeof form[period.to] === 'string' ? parseUsDate(form[period.to] as string) : null;
    if (period.pastOnly) {
      for (const [name, day] of [[period.from, from], [period.to, to]] as const) {
        if (!day || errors[name]) continue;
        if (day < EARLIEST_REQUEST_DAY) errors[name] = DATE_RANGE_MESSAGES.beforeEarliest;
        else if (day > ctx.today) errors[name] = DATE_RANGE_MESSAGES.afterToday;
      }
    }
    if (from && to && from > to && !errors[period.from] && !errors[period.to]) {
      errors[period.from] = DATE_RANGE_MESSAGES.startAfterEnd;
      errors[period.to] = DATE_RANGE_MESSAGES.endBeforeStart;
    }
    if (from && to && from === to) checkTimesOfOneDay(period, form, errors);
  }
  return errors;
}

/** A period within one day ends no earlier than it starts (times are optional; both must be there to compare). */
function checkTimesOfOneDay(period: RequestKindDefinition['periods'][number], form: RequestFormValues, errors: FieldErrors): void {
  if (!period.fromTime || !period.toTime) return;
  const start = form[period.fromTime], end = form[period.toTime];
  if (typeof start !== 'string' || typeof end !== 'string' || errors[period.fromTime] || errors[period.toTime]) return;
  // `HH:mm` strings compare as times do
  if (start > end) {
    errors[period.fromTime] = DATE_RANGE_MESSAGES.startTimeAfterEnd;
    errors[period.toTime] = DATE_RANGE_MESSAGES.endTimeBeforeStart;
  }
}

/** The rules of a stored request's kind. */
export const validateRequestOfKind = (requestType: string, certificateType: string | null | undefined, form: RequestFormValues, ctx: ValidationContext) =>
  validateRequestForm(requestKindOf(requestType, certificateType), form, ctx);
