/**
 * Rosters uploaded in bulk: the columns of a kind's template, read from the kind's declarative definition
 * (domain/request-kinds.ts) as a requester fills the form (labels as headers, the field names behind them), the example
 * row, how an uploaded header row maps onto the columns, how a row's cells become the form's values, and the messages a
 * refused file gets. Each row is then checked by the form's own rules (domain/roster-rows.ts).
 */
import { CERTIFICATE_TYPES } from './reference-lists';
import { CERTIFICATE_KINDS, CREDENTIALING_KIND, fieldsOf, isShown, type FieldDefinition, type RequestFormValues, type RequestKindDefinition } from './request-kinds';
import { ROSTER_MAX_BYTES, ROSTER_MAX_ROWS } from './limits';

/** The kinds a roster may hold: claim-history requests (credentialing) and each certificate kind. */
export const ROSTER_KINDS = ['credentialing', ...CERTIFICATE_TYPES] as const;
export type RosterKind = (typeof ROSTER_KINDS)[number];
export const isRosterKind = (value: unknown): value is RosterKind => typeof value === 'string' && (ROSTER_KINDS as readonly string[]).includes(value);

/** External requesters ask for claim histories and Clinician certificates only (as their form allows). */
export const rosterKindsFor = (isExternal: boolean): readonly RosterKind[] => (isExternal ? ['credentialing', 'Clinician'] : ROSTER_KINDS);

export const rosterKindDefinition = (kind: RosterKind): RequestKindDefinition =>
  kind === 'credentialing' ? CREDENTIALING_KIND : CERTIFICATE_KINDS[kind];

/** The request a roster row becomes: its type and certificate type. */
export const rosterRequestType = (kind: RosterKind) =>
  kind === 'credentialing' ? { requestType: 'credentialing' as const } : { requestType: 'certificate' as const, certificateType: kind };

/** A row's state: checked and refused, checked and waiting for room among the drafts, a draft, queued, sent, refused at submit. */
export const ROSTER_ROW_STATUSES = ['invalid', 'valid', 'draft', 'queued', 'submitting', 'submitted', 'refused'] as const;
export type RosterRowStatus = (typeof ROSTER_ROW_STATUSES)[number];
/** Rows "Submit all valid" takes: drafts, rows waiting for room, and rows refused at an earlier submit (fixed since, maybe). */
export const SUBMITTABLE_ROW_STATUSES: readonly RosterRowStatus[] = ['valid', 'draft', 'refused'];
/** Rows a person may still edit in place. */
export const EDITABLE_ROW_STATUSES: readonly RosterRowStatus[] = ['invalid', 'valid', 'draft', 'refused'];

export interface RosterColumn { name: string; label: string; kind: FieldDefinition['kind']; options?: readonly string[] }

/**
 * Fields a requester does not type on a roster: the directory's employee id (filled by a pick from the directory) and
 * administrators' fields.
 */
const NOT_ON_A_ROSTER = new Set(['employeeId']);

/** A kind's template columns: its fields in form order, each name once (a field declared per choice keeps its first label). */
export function rosterColumns(kind: RosterKind): RosterColumn[] {
  const seen = new Set<string>();
  const columns: RosterColumn[] = [];
  for (const field of fieldsOf(rosterKindDefinition(kind))) {
    if (field.adminOnly || NOT_ON_A_ROSTER.has(field.name) || seen.has(field.name)) continue;
    seen.add(field.name);
    columns.push({ name: field.name, label: field.label, kind: field.kind, ...(field.options ? { options: field.options } : {}) });
  }
  return columns;
}

const CHECKED = new Set(['yes', 'y', 'true', 'x', '1']);
/** An unticked box as the form holds it (false); an empty cell is a box never touched (left out). */
const UNCHECKED = new Set(['no', 'n', 'false', '0']);

/** A row's cells (text, by field name) as the form types them: a checkbox's Yes/No as a boolean, empty cells left out. */
export function rosterRowToForm(cells: Readonly<Record<string, string>>, columns: readonly RosterColumn[]): RequestFormValues {
  const values: RequestFormValues = {};
  for (const column of columns) {
    const text = (cells[column.name] ?? '').trim();
    if (column.kind === 'checkbox') {
      const word = text.toLowerCase();
      if (CHECKED.has(word)) values[column.name] = true;
      else if (UNCHECKED.has(word)) values[column.name] = false;
      else if (word) values[column.name] = text; // neither: the form's rule says so
    } else if (text) values[column.name] = text;
  }
  return values;
}

/** Example values of the template's one example row (fictitious: example.org addresses are never mailed). */
const EXAMPLES: Record<string, string> = {
  lastName: 'Nguyen', firstName: 'Avery', middleInitial: 'J', birthDate: '04/12/1980', dateFrom: '01/01/2020', dateTo: '12/31/2024',
  certificateHolder: 'Mercy Hospital', certificateHolderAddress: '1 Main St, Portland, OR 97201', facilityName: 'Mercy Hospital',
  rentalStartDate: '03/01/2025', rentalEndDate: '03/05/2025', eventStartDate: '05/01/2025', eventEndDate: '05/01/2025',
  leaseExpirationDate: '06/30/2027', vehicleYear: '2024', vehicleIdNumber: '1FTBR1C80MKA12345', driverName: 'Sam Lee',
};
const EXAMPLE_BY_KIND: Partial<Record<FieldDefinition['kind'], string>> = {
  checkbox: 'Yes', date: '01/01/2025', year: '2024', vin: '1FTBR1C80MKA12345', phone: '503-555-0100', time: '09:00',
};

/** The template's example row: every field the form requires (as an external requester fills it) filled, the rest empty. */
export function rosterExampleRow(kind: RosterKind): Record<string, string> {
  const columns = rosterColumns(kind);
  const definition = fieldsOf(rosterKindDefinition(kind));
  const values: Record<string, string> = {};
  for (const column of columns) {
    const field = definition.find((f) => f.name === column.name)!;
    if (!field.required && column.name !== 'middleInitial') continue;
    values[column.name] = EXAMPLES[column.name] ?? EXAMPLE_BY_KIND[column.kind] ?? column.options?.[0] ?? `Example ${column.label}`;
  }
  // Fields shown only for another choice stay empty (a hidden field is neither shown nor kept).
  const form: RequestFormValues = { ...values, ...(values.releaseAuthorized ? { releaseAuthorized: true } : {}) };
  for (const field of definition) {
    if (values[field.name] !== undefined && !isShown(field, form, { isExternal: true })) delete values[field.name];
  }
  return Object.fromEntries(columns.map((c) => [c.name, values[c.name] ?? '']));
}

const normal = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

export interface HeaderMatch {
  /** the field name of each header cell, in the file's order (null for an empty trailing cell) */
  names: (string | null)[];
  missing: string[];
  unknown: string[];
}

/**
 * Which column each header cell is: by the template's label or by the field's name (what other systems export),
 * case and spacing aside. Every column of the template must be there, once; nothing else may be.
 */
export function matchRosterHeader(headers: readonly string[], columns: readonly RosterColumn[]): HeaderMatch {
  const byText = new Map<string, string>();
  for (const c of columns) { byText.set(normal(c.label), c.name); byText.set(normal(c.name), c.name); }
  const names: (string | null)[] = [];
  const unknown: string[] = [];
  const found = new Set<string>();
  for (const header of headers) {
    if (!header.trim()) { names.push(null); continue; }
    const name = byText.get(normal(header));
    const known = name !== undefined && !found.has(name); // a column named twice: the second is unknown
    if (known) found.add(name); else unknown.push(header.trim());
    names.push(known ? name : null);
  }
  const missing = columns.filter((c) => !found.has(c.name)).map((c) => c.label);
  return { names, missing, unknown };
}

/** A spreadsheet cell's address (column letters and row number) as Excel shows it: A1, AB12. */
export function cellAddress(columnIndex: number, line: number): string {
  let letters = '';
  for (let n = columnIndex + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return `${letters}${line}`;
}

/** Why a file is refused whole (nothing is created). */
export const ROSTER_MESSAGES = {
  fileRequired: 'Choose an Excel workbook (.xlsx) or a CSV file made from the roster template',
  unsupportedType: 'The file is neither an Excel workbook (.xlsx) nor a CSV file: save the roster as .xlsx or as CSV (UTF-8) and upload it again',
  encoding: 'The CSV file is not UTF-8 text: save it as "CSV UTF-8 (Comma delimited)" and upload it again',
  empty: 'The file holds no roster rows: fill in one row per request below the column headers',
  tooLarge: `The file is larger than ${Math.round(ROSTER_MAX_BYTES / 1048576)} MB: a roster holds at most ${ROSTER_MAX_ROWS} rows`,
  tooManyRows: `A roster holds at most ${ROSTER_MAX_ROWS} rows and this file has more: split it into files of ${ROSTER_MAX_ROWS} rows or fewer`,
  formula: (cell: string) => `Cell ${cell} holds a formula: type the value itself (copy and paste as values) and upload again`,
  columns: (missing: readonly string[], unknown: readonly string[]) => [
    'The columns do not match the template of this request type.',
    missing.length ? `Missing: ${missing.map((m) => `"${m}"`).join(', ')}.` : '',
    unknown.length ? `Unknown: ${unknown.map((u) => `"${u}"`).join(', ')}.` : '',
    'Download the template and copy the rows into it.',
  ].filter(Boolean).join(' '),
  unreadable: 'The workbook could not be read: save it again in Excel as .xlsx and upload it again',
  kind: 'Choose a request type for the roster',
  notEditable: 'This row is submitted or being submitted: it can no longer be changed here',
  submitting: 'This roster is being submitted',
  noRoom: (limit: number) => `Waiting for room: you may hold ${limit} unsubmitted drafts at once. "Submit all valid" makes this row a draft once others are submitted.`,
  roomSummary: (made: number, waiting: number) =>
    `${made} row${made === 1 ? '' : 's'} became draft${made === 1 ? '' : 's'}; ${waiting} valid row${waiting === 1 ? '' : 's'} did not fit among your open drafts and wait for room.`,
} as const;
