/**
 * Rules of the administrators' desk (spec 1 §3 and §5, spec 2 §7.5, §7.6, §7.11, §9): FAQ ordering, policy
 * values, CS-STARS claim rows, the admin search parameters and the variables an email template may use.
 * Pure: shared by the API (which enforces them) and the UI (which shows them before sending).
 */
import { EMAIL_BODY_MAX, EMAIL_SUBJECT_MAX, FAQ_ANSWER_MAX, FAQ_QUESTION_MAX, TEXT_INPUT_MAX } from './limits';
import { DESK_MESSAGES, MESSAGES } from './messages';
import { parseUsDate } from './request-dates';
import {
  PRODUCT_NAME, RENTAL_AUTO_TYPE, REQUEST_TYPE, REQUEST_TYPE_FILTERS, REQUEST_TYPE_LABEL, type RequestType,
} from './reference-lists';

// ---------------------------------------------------------------- FAQs

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

// ---------------------------------------------------------------- money and policy years

/** "$2,565,400" / "2565400.5" → "2565400.50"; null when it is not an amount of US dollars. */
export function parseMoney(text: string | number | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const cleaned = String(text).trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^-?\d{1,13}(\.\d{1,2})?$/.test(cleaned)) return null;
  return Number(cleaned).toFixed(2);
}

export const MONEY_MESSAGE = 'Please enter an amount in US dollars, e.g. 2,565,400.00';
export const POLICY_RANGE_MESSAGE = 'End date cannot be before start date';
export const policyOverlapMessage = (from: string, to: string) =>
  `This policy year overlaps the policy year ${from} – ${to}.`;

export interface PolicyInput { startDate?: string; endDate?: string; policyNumber?: string; limitClaim?: string; annualAggregate?: string }
export interface PolicyValues { startDay: string; endDay: string; policyNumber: string; limitClaim: string; annualAggregate: string }

/** A policy date as typed (mm/dd/yyyy) or as sent (ISO): its calendar day, or null. */
export function policyDay(text: string | undefined, allowIso = true): string | null {
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

// ---------------------------------------------------------------- email templates

/**
 * The handlebars variables every email template may use. The worker's snapshot (activities/effects/
 * request-snapshot.ts) is typed by this list, so a template the API accepts can always be rendered.
 */
export const TEMPLATE_VARIABLES = [
  'productName', 'requesterName', 'requestNumber', 'requestTypeLabel', 'clinicianName', 'status', 'requestUrl', 'portalUrl',
  'certificateType', 'certificateHolder', 'additionalInformation',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** The request fields the variables are made of. */
export interface TemplateRequestFields {
  id: number; requestNumber?: number | null; requestType: string; status: string;
  requesterName?: string | null; requesterEmail?: string | null;
  firstName?: string | null; middleInitial?: string | null; lastName?: string | null;
  certificateType?: string | null; certificateHolder?: string | null;
}

/** The values of TEMPLATE_VARIABLES for a request (the snapshot's variables, and the template preview's). */
export function templateVariablesOf(request: TemplateRequestFields, publicUrl: string): Record<TemplateVariable, string | number> {
  return {
    productName: PRODUCT_NAME,
    requesterName: request.requesterName ?? request.requesterEmail ?? '',
    requestNumber: request.requestNumber ?? '',
    requestTypeLabel: REQUEST_TYPE_LABEL[request.requestType as RequestType] ?? request.requestType,
    clinicianName: [request.firstName, request.middleInitial, request.lastName].filter(Boolean).join(' '),
    status: request.status,
    requestUrl: `${publicUrl}/requests/${request.requestType}/${request.id}`,
    portalUrl: publicUrl,
    certificateType: request.certificateType ?? '',
    certificateHolder: request.certificateHolder ?? '',
    // What a particular email asks of the requester (an expired signed release); empty in every other email.
    additionalInformation: '',
  };
}

/** The sample request a template preview is rendered with when no request is named. */
export const SAMPLE_TEMPLATE_REQUEST: TemplateRequestFields = {
  id: 1, requestNumber: 50123, requestType: 'credentialing', status: 'Submitted', requesterName: 'Casey Requester',
  requesterEmail: 'requester@hospital.example', firstName: 'Avery', middleInitial: 'J', lastName: 'Nguyen',
};

/** Block helpers a template may use around the variables. */
export const TEMPLATE_HELPERS = ['if', 'unless', 'with'] as const;

export function emailTemplateErrors(input: { subject?: string; body?: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const subject = input.subject?.trim() ?? '';
  const body = input.body?.trim() ?? '';
  if (!subject) errors.subject = MESSAGES.required;
  else if (subject.length > EMAIL_SUBJECT_MAX) errors.subject = `Subject cannot be longer than ${EMAIL_SUBJECT_MAX} characters`;
  if (!body) errors.body = MESSAGES.required;
  else if (body.length > EMAIL_BODY_MAX) errors.body = `Body cannot be longer than ${EMAIL_BODY_MAX} characters`;
  return errors;
}

export const unknownVariableMessage = (names: string[]) =>
  `Unknown variable${names.length > 1 ? 's' : ''} ${names.map((n) => `{{${n}}}`).join(', ')}. Use only: ${TEMPLATE_VARIABLES.map((n) => `{{${n}}}`).join(', ')}.`;

// ---------------------------------------------------------------- CS-STARS claims (spec 1 §3)

export const CLAIM_INVOLVEMENTS = ['Defendant - Staff', 'Named in Claim'] as const;
export const CLAIM_TYPES = ['Claim', 'Lawsuit'] as const;
export const CLAIM_STATUSES = ['Open', 'Final', 'Reopened'] as const;
export const CLAIM_OUTCOMES = ['Dismissed', 'Claim Denied', 'Settled', 'Closed - No Payment', 'Summary Judgement'] as const;

/** CSV columns, in the order the generator writes them; headers match case- and space-insensitively. */
export const CLAIM_COLUMNS = [
  ['exportDate', 'Export Date'],
  ['physicianLastName', 'Physician Last Name'],
  ['physicianFirstName', 'Physician First Name'],
  ['physicianMiddleInitial', 'Physician Middle Initial'],
  ['involvement', 'Involvement'],
  ['claimNumber', 'Claim Number'],
  ['type', 'Type'],
  ['status', 'Status'],
  ['outcome', 'Outcome'],
  ['claimDate', 'Claim Date'],
  ['reportDate', 'Report Date'],
  ['indemnityPaid', 'Indemnity Paid'],
  ['description', 'Description'],
] as const;
export type ClaimField = (typeof CLAIM_COLUMNS)[number][0];

export const headerKey = (header: string) => header.toLowerCase().replace(/[^a-z]/g, '');
const FIELD_BY_HEADER = new Map<string, ClaimField>(CLAIM_COLUMNS.flatMap(([field, label]) => [[headerKey(field), field], [headerKey(label), field]]));

/** The field of a CSV header, or null. */
export const claimFieldOf = (header: string): ClaimField | null => FIELD_BY_HEADER.get(headerKey(header)) ?? null;
export const REQUIRED_CLAIM_FIELDS: ClaimField[] = [
  'exportDate', 'physicianLastName', 'physicianFirstName', 'involvement', 'claimNumber', 'type', 'status', 'claimDate', 'reportDate', 'indemnityPaid',
];

export interface ClaimRow {
  exportDate: string; physicianLastName: string; physicianFirstName: string; physicianMiddleInitial: string;
  involvement: string; claimNumber: string; type: string; status: string; outcome: string;
  claimDate: string; reportDate: string; indemnityPaid: string; description: string;
}

/** A date of the CSV: mm/dd/yyyy or yyyy-mm-dd. */
function csvDay(text: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return parseUsDate(`${text.slice(5, 7)}/${text.slice(8, 10)}/${text.slice(0, 4)}`);
  return parseUsDate(text);
}

const INVOLVEMENT_SET: ReadonlySet<string> = new Set(CLAIM_INVOLVEMENTS);
const TYPE_SET: ReadonlySet<string> = new Set(CLAIM_TYPES);
const STATUS_SET: ReadonlySet<string> = new Set(CLAIM_STATUSES);
const OUTCOME_SET: ReadonlySet<string> = new Set(CLAIM_OUTCOMES);
const listText = (list: readonly string[]) => list.map((x) => `'${x}'`).join(', ');

/**
 * Checks one CSV record against spec 1 §3. Returns the clean row (dates as yyyy-mm-dd) or the reasons it is refused.
 * It runs once per line of a 100,000-line upload, so each value is trimmed once and the lists are sets.
 */
export function checkClaimRow(record: Partial<Record<ClaimField, string>>): { row: ClaimRow | null; reasons: string[] } {
  const reasons: string[] = [];
  const t: Record<ClaimField, string> = {
    exportDate: (record.exportDate ?? '').trim(), physicianLastName: (record.physicianLastName ?? '').trim(),
    physicianFirstName: (record.physicianFirstName ?? '').trim(), physicianMiddleInitial: (record.physicianMiddleInitial ?? '').trim(),
    involvement: (record.involvement ?? '').trim(), claimNumber: (record.claimNumber ?? '').trim(), type: (record.type ?? '').trim(),
    status: (record.status ?? '').trim(), outcome: (record.outcome ?? '').trim(), claimDate: (record.claimDate ?? '').trim(),
    reportDate: (record.reportDate ?? '').trim(), indemnityPaid: (record.indemnityPaid ?? '').trim(), description: (record.description ?? '').trim(),
  };
  for (const field of REQUIRED_CLAIM_FIELDS) if (!t[field]) reasons.push(`${field} is required`);
  if (t.involvement && !INVOLVEMENT_SET.has(t.involvement)) reasons.push(`involvement "${t.involvement}" is not one of ${listText(CLAIM_INVOLVEMENTS)}`);
  if (t.type && !TYPE_SET.has(t.type)) reasons.push(`type "${t.type}" is not one of ${listText(CLAIM_TYPES)}`);
  if (t.status && !STATUS_SET.has(t.status)) reasons.push(`status "${t.status}" is not one of ${listText(CLAIM_STATUSES)}`);
  const outcome = t.outcome;
  if (t.status === 'Open' && outcome) reasons.push('outcome must be empty while the claim is Open');
  if (t.status === 'Final' && !outcome) reasons.push('outcome is required for a Final claim');
  if (outcome && !OUTCOME_SET.has(outcome)) reasons.push(`outcome "${outcome}" is not one of ${listText(CLAIM_OUTCOMES)}`);
  const day = (f: 'exportDate' | 'claimDate' | 'reportDate') => {
    if (!t[f]) return '';
    const value = csvDay(t[f]);
    if (!value) reasons.push(`${f} "${t[f]}" is not a date (mm/dd/yyyy)`);
    return value ?? '';
  };
  const exportDate = day('exportDate');
  const claimDate = day('claimDate');
  const reportDate = day('reportDate');
  const money = t.indemnityPaid ? parseMoney(t.indemnityPaid) : null;
  if (t.indemnityPaid && (money === null || Number(money) < 0)) reasons.push(`indemnityPaid "${t.indemnityPaid}" is not an amount of US dollars`);
  const middle = t.physicianMiddleInitial.replace('.', '');
  if (middle.length > 1 || (middle && !/^\p{L}$/u.test(middle))) reasons.push('physicianMiddleInitial must be one letter');
  for (const f of ['physicianLastName', 'physicianFirstName', 'claimNumber'] as const) {
    if (t[f].length > TEXT_INPUT_MAX) reasons.push(`${f} cannot be longer than ${TEXT_INPUT_MAX} characters`);
  }
  if (reasons.length) return { row: null, reasons };
  return {
    reasons,
    row: {
      exportDate, physicianLastName: t.physicianLastName, physicianFirstName: t.physicianFirstName, physicianMiddleInitial: middle,
      involvement: t.involvement, claimNumber: t.claimNumber, type: t.type, status: t.status, outcome, claimDate, reportDate,
      indemnityPaid: money!, description: t.description,
    },
  };
}

// ---------------------------------------------------------------- admin search (spec 2 §7.5)

export const SEARCH_TEXT_PARAMS = ['clinLastName', 'reqstrLastName', 'reqstrCompany', 'reqstrEmail', 'fleetVIN', 'plateNumber', 'driverName'] as const;
export type SearchTextParam = (typeof SEARCH_TEXT_PARAMS)[number];
export interface SearchParams extends Partial<Record<SearchTextParam, string>> { searchFrom?: string; searchTo?: string; limit?: number | string }

/** VIN and plate numbers match with dashes and spaces ignored. */
export const normalizeVehicleId = (text: string) => text.replace(/[-\s]/g, '').toUpperCase();

/** The search's own rules: at least one parameter besides the count; from not after to; count at least 1. */
export function searchErrors(params: SearchParams): Record<string, string> {
  const errors: Record<string, string> = {};
  const filled = [...SEARCH_TEXT_PARAMS, 'searchFrom', 'searchTo'].some((k) => String(params[k as keyof SearchParams] ?? '').trim());
  if (!filled) errors.search = DESK_MESSAGES.searchParamsNeeded;
  if (params.searchFrom && params.searchTo && params.searchFrom.slice(0, 10) > params.searchTo.slice(0, 10)) {
    errors.searchFrom = DESK_MESSAGES.fromAfterTo;
    errors.searchTo = DESK_MESSAGES.toBeforeFrom;
  }
  if (params.limit !== undefined && params.limit !== '') {
    const n = Number(params.limit);
    if (!Number.isInteger(n) || n < 1) errors.limit = 'Result count must be a whole number of at least 1';
  }
  return errors;
}

/**
 * The fields a dashboard table shows or decides with (the UI's request columns and labels, the stale-letter list):
 * the dashboard call and the UI's table pages ask for these only, about a tenth of a whole request (issue #11).
 */
export const DASHBOARD_FIELDS = [
  'requestNumber', 'requestType', 'certificateType', 'autoType', 'status', 'lastName', 'firstName', 'middleInitial',
  'personRole', 'vehicleIdNumber', 'requesterName', 'requesterEmail', 'createdAt', 'updatedAt', 'submitDate',
  'completedDate', 'letterStaleSince', 'dateFrom', 'dateTo',
  'requesterId', // whose row it is: one's own drafts offer Edit and Delete
] as const;

/** The type label of result lists: the credentialing label, or "COI Request: <type>" (Rental for rental cars). */
export function requestTypeLabelOf(r: { requestType: string; certificateType?: string | null; autoType?: string | null }): string {
  if (r.requestType !== 'certificate') return REQUEST_TYPE_LABEL[r.requestType as RequestType] ?? r.requestType;
  if (r.certificateType === 'Auto Liability' && r.autoType === RENTAL_AUTO_TYPE) return RENTAL_FILTER;
  return r.certificateType ? `COI Request: ${r.certificateType}` : REQUEST_TYPE_LABEL.certificate;
}

export type RequestTypeFilter = (typeof REQUEST_TYPE_FILTERS)[number];
const RENTAL_FILTER: RequestTypeFilter = 'COI Request: Rental';

export const isRequestTypeFilter = (label: unknown): label is RequestTypeFilter =>
  typeof label === 'string' && (REQUEST_TYPE_FILTERS as readonly string[]).includes(label);

/**
 * The rows a "Filter By Request Type" label stands for, as field conditions (the list query's operators: exact
 * match, `$ne`, `$or`), so the server filters by the label exactly as {@link requestTypeLabelOf} names rows:
 * Auto Liability leaves out rentals (their own label), including rows with no auto type. Null for an unknown label.
 */
export function requestTypeLabelWhere(label: string): Record<string, unknown> | null {
  if (!isRequestTypeFilter(label)) return null;
  if (label === REQUEST_TYPE_FILTERS[0]) return { requestType: REQUEST_TYPE.credentialing };
  if (label === RENTAL_FILTER) return { requestType: REQUEST_TYPE.certificate, certificateType: 'Auto Liability', autoType: RENTAL_AUTO_TYPE };
  const certificateType = label.slice('COI Request: '.length);
  const where: Record<string, unknown> = { requestType: REQUEST_TYPE.certificate, certificateType };
  if (certificateType === 'Auto Liability') where.$or = [{ autoType: null }, { autoType: { $ne: RENTAL_AUTO_TYPE } }];
  return where;
}

// ---------------------------------------------------------------- export (spec 2 §7.11)

/** `coi_export_` plus the local timestamp, e.g. coi_export_2026-11-22_031502. */
export function exportFileName(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `coi_export_${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}_${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
}
export const EXPORT_FILE_NAME = /^coi_export_[0-9A-Za-z_-]{1,60}$/;
