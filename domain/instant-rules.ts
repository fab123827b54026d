/**
 * Instant certificates: the rules an office writes to let a standard certificate request issue itself on submit,
 * and the one evaluator that judges a request against them (the request workflow's activity, the API's preview and
 * the simulator's test all call `evaluateRule`; the simulator's SQL compilation is held to it by a test).
 *
 * A rule's conditions are stored as react-querybuilder's own JSON (`{ combinator, not?, rules }`), the format its
 * editor reads and writes and its `formatQuery` compiles to parameterised SQL. The fields a rule may name are the
 * certificate kinds' form fields as domain/request-kinds.ts declares them, plus a few facts derived from them
 * (`DERIVED_RULE_FIELDS`). Claim-history letters are never covered: no rule can state the guard that makes one safe
 * (CS-STARS data recent, the clinician matched without doubt), so the request kinds a rule names are certificate
 * subtypes only.
 *
 * Semantics, the same in TypeScript and SQL: text is compared exactly, an empty text is `''` (so "is empty" and
 * "!= x" hold for it); a number that cannot be known (no period) makes every comparison false except "is empty".
 *
 * Pure: no I/O, no Date.now(); the office's time zone comes in.
 */
import { CERTIFICATE_KINDS, fieldsOf, type FieldDefinition } from './request-kinds';
import { CERTIFICATE_TYPES, type CertificateType } from './reference-lists';
import { zonedDay } from './business-calendar';

export type RuleValueType = 'choice' | 'text' | 'number' | 'boolean';
export type RuleOperator = '=' | '!=' | 'in' | 'notIn' | '<' | '<=' | '>' | '>=' | 'null' | 'notNull';
export type RuleValue = string | number | boolean | Array<string | number> | null | undefined;

export interface RuleCondition { id?: string; field: string; operator: string; value?: RuleValue }
export interface RuleGroup { id?: string; combinator: 'and' | 'or' | string; not?: boolean; rules: Array<RuleCondition | RuleGroup> }

export interface RuleField {
  name: string;
  label: string;
  type: RuleValueType;
  /** the kinds whose form has this field (derived facts: every certificate kind) */
  kinds: readonly CertificateType[];
  /** the values a choice may take */
  options?: readonly string[];
}

export const RULE_OPERATORS: Record<RuleValueType, readonly RuleOperator[]> = {
  choice: ['=', '!=', 'in', 'notIn', 'null', 'notNull'],
  text: ['=', '!=', 'in', 'notIn', 'null', 'notNull'],
  number: ['=', '!=', '<', '<=', '>', '>=', 'null', 'notNull'],
  boolean: ['='],
};

export const RULE_OPERATOR_LABELS: Record<RuleOperator, string> = {
  '=': 'is', '!=': 'is not', in: 'is one of', notIn: 'is none of', '<': 'is less than', '<=': 'is at most', '>': 'is more than',
  '>=': 'is at least', null: 'is empty', notNull: 'is not empty',
};

/** Facts a rule may name that no form field holds as such: who asks, how long, how soon, what is attached. */
export const DERIVED_RULE_FIELDS: readonly RuleField[] = [
  { name: 'requesterType', label: 'Requester type', type: 'choice', options: ['internal', 'external'], kinds: CERTIFICATE_TYPES },
  { name: 'requesterCompany', label: 'Requester company', type: 'text', kinds: CERTIFICATE_TYPES },
  { name: 'periodDays', label: 'Length of the period (days)', type: 'number', kinds: CERTIFICATE_TYPES },
  { name: 'daysUntilStart', label: 'Days from submit to the period\'s start', type: 'number', kinds: CERTIFICATE_TYPES },
  { name: 'documentCount', label: 'Documents attached', type: 'number', kinds: CERTIFICATE_TYPES },
];

const valueTypeOf = (field: FieldDefinition): RuleValueType | null => {
  switch (field.kind) {
    case 'select': case 'yesNo': case 'time': return 'choice';
    case 'checkbox': return 'boolean';
    case 'text': case 'textarea': case 'email': case 'emailList': case 'phone': case 'year': case 'vin': return 'text';
    default: return null; // dates are judged through the derived period facts
  }
};

/** Every field a rule may name, once, with the kinds that have it. */
export const RULE_FIELDS: readonly RuleField[] = (() => {
  const byName = new Map<string, RuleField>();
  for (const kind of CERTIFICATE_TYPES) {
    for (const f of fieldsOf(CERTIFICATE_KINDS[kind])) {
      const type = valueTypeOf(f);
      if (!type || f.adminOnly) continue;
      const known = byName.get(f.name);
      if (known) { byName.set(f.name, { ...known, kinds: [...known.kinds, kind] }); continue; }
      byName.set(f.name, { name: f.name, label: f.label, type, kinds: [kind], ...(f.options && type === 'choice' ? { options: f.options } : {}) });
    }
  }
  return [...DERIVED_RULE_FIELDS, ...byName.values()];
})();

const RULE_FIELD_BY_NAME = new Map(RULE_FIELDS.map((f) => [f.name, f]));
export const ruleFieldOf = (name: string): RuleField | undefined => RULE_FIELD_BY_NAME.get(name);

/**
 * Free text that carries an ask no rule foresaw: an "Other" answer, or a description the form asks for only after an
 * answer out of the ordinary (the patient care at an event, the equipment of a property request). A request with any
 * of it filled in issues only when the rule names that field. The descriptions every request of a kind has (the
 * event's description, the holder's address) are the kind's own and are not guarded.
 */
export const FREE_TEXT_GUARDED: ReadonlySet<string> = new Set(
  CERTIFICATE_TYPES.flatMap((k) => fieldsOf(CERTIFICATE_KINDS[k]))
    .filter((f) => !f.adminOnly && ((f.kind === 'textarea' && (f.required !== true || f.visibleWhen !== undefined)) || (f.kind === 'text' && /Other$/.test(f.name))))
    .map((f) => f.name),
);

export const INSTANT_DEFAULTS = { checkEvery: 10, dailyCap: 50 } as const;
export const INSTANT_LIMITS = { nameMax: 100, conditionsMax: 50, depthMax: 4, valuesMax: 100, valueMax: 200, checkEveryMax: 1000, dailyCapMax: 10_000 } as const;

export const INSTANT_MESSAGES = {
  nameRequired: 'Please enter a name for the rule',
  kindsRequired: 'Choose at least one certificate type',
  conditionsRequired: 'Add at least one condition',
  unknownField: (field: string) => `"${field}" is not a field a rule can name`,
  fieldNotInKinds: (label: string) => `"${label}" is not a field of every certificate type this rule covers`,
  unknownOperator: (label: string, op: string) => `"${op}" cannot be used with "${label}"`,
  badValue: (label: string) => `The value for "${label}" is not one it can take`,
  tooMany: `A rule has at most ${INSTANT_LIMITS.conditionsMax} conditions, nested at most ${INSTANT_LIMITS.depthMax} deep`,
  switchedOff: (problem: string) => `Switched off: it could not be evaluated (${problem})`,
} as const;

/** Why a request that a rule covers was not issued: shown to administrators on the request's page. */
export const INSTANT_STOPS = {
  officeOff: 'Instant certificates are switched off for the office',
  noRule: 'No enabled rule covers this certificate type',
  noMatch: (rule: string, condition: string) => `${rule}: ${condition}`,
  freeText: (rule: string, label: string) => `${rule}: "${label}" has free text the rule does not cover`,
  uncovered: (rule: string, message: string) => `${rule}: ${message}`,
  dailyCap: (rule: string, cap: number) => `${rule}: its daily cap of ${cap} is reached`,
  onHold: (reason: string) => `The requester is on hold for instant certificates${reason ? ` (${reason})` : ''}`,
  broken: (rule: string, problem: string) => `${rule}: switched off, it could not be evaluated (${problem})`,
  changedMeanwhile: 'The request changed before the rule was applied',
} as const;

/** The hold a revoked instant certificate puts on its requester, in the words the rules page and the stop show. */
export const instantHoldAfterRevocation = (requestNumber: number): string => `a certificate issued instantly (request ${requestNumber}) was revoked`;

export const instantActorName = (ruleName: string, version: number): string => `Rule: ${ruleName} v${version}`;

/** One in N certificates a rule issues goes to "Check after issue": the Nth, 2Nth… of that rule. */
export const checkedAfterIssue = (issuedByRule: number, checkEvery: number): boolean =>
  checkEvery > 0 && issuedByRule > 0 && issuedByRule % checkEvery === 0;

// ---- facts ----------------------------------------------------------------------------------------------------

export type RuleFacts = Record<string, string | number | boolean | null>;

/** What the evaluator needs of a request (its row as stored, with the count of its documents). */
export interface RuleRequestInput {
  certificateType: string | null;
  employerType: string | null;
  requesterCompany: string | null;
  submitDate: Date | string | null;
  documentCount: number;
  /** the form's values by field name (dates as Date or ISO) */
  fields: Record<string, unknown>;
}

const dayOf = (value: unknown, timeZone: string): string | null => {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(d.getTime()) ? null : zonedDay(d.getTime(), timeZone);
};
const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The period a kind's form asks for (its first period rule), e.g. eventStartDate → eventEndDate. */
export const periodFieldsOf = (kind: CertificateType): { from: string; to: string } | null => {
  const p = CERTIFICATE_KINDS[kind].periods[0];
  return p ? { from: p.from, to: p.to } : null;
};

export function requestFacts(input: RuleRequestInput, timeZone: string): RuleFacts {
  const facts: RuleFacts = {};
  for (const f of RULE_FIELDS) {
    if (f.type === 'text' || f.type === 'choice') facts[f.name] = input.fields[f.name] == null ? '' : String(input.fields[f.name]);
    else if (f.type === 'boolean') facts[f.name] = input.fields[f.name] === true;
  }
  facts.requesterType = input.employerType ?? '';
  facts.requesterCompany = input.requesterCompany ?? '';
  facts.documentCount = input.documentCount;
  const period = input.certificateType ? periodFieldsOf(input.certificateType as CertificateType) : null;
  const from = period ? dayOf(input.fields[period.from], timeZone) : null;
  const to = period ? dayOf(input.fields[period.to], timeZone) : null;
  const submitted = dayOf(input.submitDate, timeZone);
  facts.periodDays = from && to ? daysBetween(from, to) + 1 : null;
  facts.daysUntilStart = from && submitted ? daysBetween(submitted, from) : null;
  return facts;
}

// ---- checking a rule as written ---------------------------------------------------------------------------------

const isGroup = (r: RuleCondition | RuleGroup): r is RuleGroup => Array.isArray((r as RuleGroup).rules);
const listOf = (value: RuleValue): Array<string | number> =>
  Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : [];
/** The values of an `in`/`notIn` condition as the evaluator reads them (the simulator's SQL binds the same list). */
export const ruleValueList = listOf;

function valueProblem(field: RuleField, operator: RuleOperator, value: RuleValue): boolean {
  if (operator === 'null' || operator === 'notNull') return false;
  const fits = (v: unknown): boolean => {
    if (field.type === 'number') return typeof v === 'number' ? Number.isFinite(v) : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));
    if (field.type === 'boolean') return typeof v === 'boolean';
    if (typeof v !== 'string' || v.length > INSTANT_LIMITS.valueMax) return false;
    return field.type !== 'choice' || !field.options || field.options.includes(v);
  };
  if (operator === 'in' || operator === 'notIn') {
    const values = listOf(value);
    return values.length === 0 || values.length > INSTANT_LIMITS.valuesMax || !values.every(fits);
  }
  return !fits(value);
}

/** Every reason a rule cannot be evaluated for these kinds, in the editor's words; empty when it can. */
export function ruleProblems(group: unknown, kinds: readonly string[]): string[] {
  const problems: string[] = [];
  let count = 0;
  const walk = (g: RuleGroup, depth: number): void => {
    if (depth > INSTANT_LIMITS.depthMax) { problems.push(INSTANT_MESSAGES.tooMany); return; }
    for (const r of g.rules) {
      if (!r || typeof r !== 'object') { problems.push(INSTANT_MESSAGES.unknownField(String(r))); continue; }
      if (isGroup(r)) { walk(r, depth + 1); continue; }
      if (++count > INSTANT_LIMITS.conditionsMax) { problems.push(INSTANT_MESSAGES.tooMany); return; }
      const field = ruleFieldOf(r.field);
      if (!field) { problems.push(INSTANT_MESSAGES.unknownField(String(r.field))); continue; }
      if (!kinds.every((k) => field.kinds.includes(k as CertificateType))) problems.push(INSTANT_MESSAGES.fieldNotInKinds(field.label));
      if (!RULE_OPERATORS[field.type].includes(r.operator as RuleOperator)) { problems.push(INSTANT_MESSAGES.unknownOperator(field.label, String(r.operator))); continue; }
      if (valueProblem(field, r.operator as RuleOperator, r.value)) problems.push(INSTANT_MESSAGES.badValue(field.label));
    }
  };
  if (!group || typeof group !== 'object' || !Array.isArray((group as RuleGroup).rules)) return [INSTANT_MESSAGES.conditionsRequired];
  walk(group as RuleGroup, 1);
  if (count === 0 && problems.length === 0) problems.push(INSTANT_MESSAGES.conditionsRequired);
  return [...new Set(problems)];
}

/** The field names a rule's conditions name (the free-text guard lets those through). */
export function fieldsNamed(group: RuleGroup): Set<string> {
  const names = new Set<string>();
  const walk = (g: RuleGroup) => g.rules.forEach((r) => (isGroup(r) ? walk(r) : names.add(r.field)));
  walk(group);
  return names;
}

// ---- evaluating ---------------------------------------------------------------------------------------------------

const asNumber = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

/** One condition on the facts; the rule was checked (`ruleProblems`) before. */
export function conditionHolds(c: RuleCondition, facts: RuleFacts): boolean {
  const field = ruleFieldOf(c.field)!;
  const actual = facts[c.field] ?? null;
  const op = c.operator as RuleOperator;
  if (field.type === 'number') {
    if (op === 'null') return actual === null;
    if (op === 'notNull') return actual !== null;
    if (actual === null) return false;
    const a = actual as number; const v = asNumber(c.value);
    switch (op) {
      case '=': return a === v; case '!=': return a !== v; case '<': return a < v; case '<=': return a <= v; case '>': return a > v; case '>=': return a >= v;
      default: return false;
    }
  }
  if (field.type === 'boolean') return actual === (c.value === true);
  const text = String(actual ?? '');
  switch (op) {
    case 'null': return text === '';
    case 'notNull': return text !== '';
    case '=': return text === String(c.value);
    case '!=': return text !== String(c.value);
    case 'in': return listOf(c.value ?? null).map(String).includes(text);
    case 'notIn': return !listOf(c.value ?? null).map(String).includes(text);
    default: return false;
  }
}

const describeValue = (v: RuleValue): string => (Array.isArray(v) ? v.join(', ') : v === undefined || v === null ? '' : String(v));
/** A condition in words: `"Event Type" is one of Picnic, Fair`. */
export function describeCondition(c: RuleCondition): string {
  const label = ruleFieldOf(c.field)?.label ?? c.field;
  const op = RULE_OPERATOR_LABELS[c.operator as RuleOperator] ?? c.operator;
  const value = c.operator === 'null' || c.operator === 'notNull' ? '' : ` ${describeValue(c.value)}`;
  return `"${label}" ${op}${value}`;
}

const describeGroup = (g: RuleGroup): string => {
  const inner = g.rules.map((r) => (isGroup(r) ? `(${describeGroup(r)})` : describeCondition(r))).join(g.combinator === 'or' ? ' or ' : ' and ');
  return g.not ? `not (${inner})` : inner;
};

export interface RuleVerdict {
  matches: boolean;
  /** when the rule does not match, what it needs that the request lacks, in words: `needs "Event Type" is Picnic` */
  stoppedBy: string | null;
}

/** Whether the group holds, and when it does not, the first condition (or group) that stopped it, in words. */
export function evaluateRule(group: RuleGroup, facts: RuleFacts): RuleVerdict {
  const holds = (g: RuleGroup): { ok: boolean; stop: string | null } => {
    const results = g.rules.map((r) => (isGroup(r) ? holds(r) : conditionHolds(r, facts) ? { ok: true, stop: null } : { ok: false, stop: describeCondition(r) }));
    const inner = g.combinator === 'or' ? results.some((r) => r.ok) : results.every((r) => r.ok);
    if (inner !== !!g.not) return { ok: true, stop: null };
    if (g.not || g.combinator === 'or') return { ok: false, stop: describeGroup(g) };
    return { ok: false, stop: results.find((r) => !r.ok)?.stop ?? describeGroup(g) };
  };
  const { ok, stop } = holds(group);
  return { matches: ok, stoppedBy: ok ? null : `needs ${stop}` };
}

/** A field of free text the request fills in that the rule does not name, or null. */
export function unreadFreeText(group: RuleGroup, facts: RuleFacts): string | null {
  const named = fieldsNamed(group);
  for (const name of FREE_TEXT_GUARDED) {
    if (!named.has(name) && typeof facts[name] === 'string' && (facts[name] as string).trim() !== '') return ruleFieldOf(name)?.label ?? name;
  }
  return null;
}
