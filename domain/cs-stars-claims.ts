/**
 * CS-STARS claim rows (spec 1 §3): the CSV's columns and value lists, and the check of one record. Shared by the
 * API's upload (services/desk/cs-stars-check.ts) and the UI, which shows the rules.
 */
import { TEXT_INPUT_MAX } from './limits';
import { parseMoney } from './money';
import { parseUsDate } from './request-dates';

export const CLAIM_INVOLVEMENTS = ['Defendant - Staff', 'Named in Claim'] as const;
const CLAIM_TYPES = ['Claim', 'Lawsuit'] as const;
const CLAIM_STATUSES = ['Open', 'Final', 'Reopened'] as const;
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

const headerKey = (header: string) => header.toLowerCase().replace(/[^a-z]/g, '');
const FIELD_BY_HEADER = new Map<string, ClaimField>(CLAIM_COLUMNS.flatMap(([field, label]) => [[headerKey(field), field], [headerKey(label), field]]));

/** The field of a CSV header, or null. */
export const claimFieldOf = (header: string): ClaimField | null => FIELD_BY_HEADER.get(headerKey(header)) ?? null;
export const REQUIRED_CLAIM_FIELDS: ClaimField[] = [
  'exportDate', 'physicianLastName', 'physicianFirstName', 'involvement', 'claimNumber', 'type', 'status', 'claimDate', 'reportDate', 'indemnityPaid',
];

interface ClaimRow {
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
  // Not cleanMiddleInitial (form-text.ts): a CSV's initial is one letter with at most one dot; anything else is refused.
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
