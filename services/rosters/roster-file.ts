/**
 * A roster's file: the template of a kind (xlsx and CSV: the kind's columns, labels as headers, one example row) and
 * the reading of an uploaded one. The file is judged by its bytes (an xlsx is a zip; a CSV is UTF-8 text), its header
 * row must name the template's columns, no cell may hold a formula, and it holds at most ROSTER_MAX_ROWS rows: a file
 * breaking any of these is refused whole with one message (domain/rosters.ts ROSTER_MESSAGES), and reading stops at the
 * first row past the limit, so a file of 10,000 rows is refused without reading them all.
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import {
  cellAddress, matchRosterHeader, ROSTER_MAX_ROWS, ROSTER_MESSAGES, rosterColumns, rosterExampleRow, type RosterColumn, type RosterKind,
} from '../../domain';
import { invalid, unsupportedType } from '../refusals';

export interface RosterFileRow {
  /** the row's number as a spreadsheet shows it (the header is row 1) */
  line: number;
  /** its cells' text, by field name */
  cells: Record<string, string>;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const templateName = (kind: RosterKind, extension: string) => `roster-template-${kind.toLowerCase().replace(/[^a-z]+/g, '-')}.${extension}`;

// ---- the template ---------------------------------------------------------------------------------------------

const csvCell = (text: string) => (/[",\r\n;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export async function rosterTemplate(kind: RosterKind, format: 'xlsx' | 'csv'): Promise<{ fileName: string; contentType: string; body: Buffer }> {
  const columns = rosterColumns(kind);
  const example = rosterExampleRow(kind);
  if (format === 'csv') {
    const lines = [columns.map((c) => csvCell(c.label)).join(','), columns.map((c) => csvCell(example[c.name] ?? '')).join(',')];
    // The byte-order mark makes Excel read the file as UTF-8 (the upload ignores it).
    return { fileName: templateName(kind, 'csv'), contentType: 'text/csv; charset=utf-8', body: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8') };
  }
  // Loaded on demand: exceljs costs every API process megabytes of heap (services/desk/reports-workbook.ts).
  const { default: Excel } = await import('exceljs');
  const book = new Excel.Workbook();
  const sheet = book.addWorksheet('Roster');
  sheet.addRow(columns.map((c) => c.label)).font = { bold: true };
  // Every cell as text: a date stays mm/dd/yyyy as typed, a leading zero stays.
  sheet.addRow(columns.map((c) => example[c.name] ?? ''));
  sheet.columns.forEach((column) => { column.width = 24; column.numFmt = '@'; });
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const choices = book.addWorksheet('Choices');
  const listed = columns.filter((c) => c.options?.length);
  choices.addRow(listed.map((c) => c.label)).font = { bold: true };
  const longest = Math.max(0, ...listed.map((c) => c.options!.length));
  for (let i = 0; i < longest; i += 1) choices.addRow(listed.map((c) => c.options![i] ?? ''));
  return { fileName: templateName(kind, 'xlsx'), contentType: XLSX_TYPE, body: Buffer.from(await book.xlsx.writeBuffer()) };
}

// ---- reading an upload ----------------------------------------------------------------------------------------

const isZip = (bytes: Buffer) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const isUtf16 = (bytes: Buffer) => bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));

/** UTF-8 text (a byte-order mark dropped), or null for any other encoding. */
function utf8Text(bytes: Buffer): string | null {
  if (isUtf16(bytes)) return null;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    return null;
  }
}

/** The rows of an uploaded roster, or a refusal saying why the file as a whole is not taken. */
export async function readRosterFile(bytes: Buffer, kind: RosterKind): Promise<RosterFileRow[]> {
  if (bytes.length === 0) throw invalid(ROSTER_MESSAGES.empty, { file: ROSTER_MESSAGES.empty });
  const columns = rosterColumns(kind);
  let table: Iterable<{ line: number; cells: unknown[] }> | AsyncIterable<{ line: number; cells: unknown[] }>;
  if (isZip(bytes)) table = xlsxRows(bytes);
  else {
    if (bytes.subarray(0, 8192).includes(0) && !isUtf16(bytes)) throw unsupportedType(ROSTER_MESSAGES.unsupportedType);
    const text = utf8Text(bytes);
    if (text === null) throw invalid(ROSTER_MESSAGES.encoding, { file: ROSTER_MESSAGES.encoding });
    table = csvRows(text);
  }
  return rowsOf(table, columns);
}

async function rowsOf(table: Iterable<{ line: number; cells: unknown[] }> | AsyncIterable<{ line: number; cells: unknown[] }>, columns: RosterColumn[]) {
  let names: (string | null)[] | null = null;
  const rows: RosterFileRow[] = [];
  for await (const { line, cells } of table) {
    const texts = cells.map((value, index) => cellText(value, index, line));
    if (texts.every((t) => !t.trim())) continue; // blank rows between or after the roster
    if (!names) {
      const match = matchRosterHeader(texts, columns);
      if (match.missing.length || match.unknown.length) {
        const message = ROSTER_MESSAGES.columns(match.missing, match.unknown);
        throw invalid(message, { file: message }, { missing: match.missing, unknown: match.unknown });
      }
      names = match.names;
      continue;
    }
    if (rows.length === ROSTER_MAX_ROWS) throw invalid(ROSTER_MESSAGES.tooManyRows, { file: ROSTER_MESSAGES.tooManyRows }, { maxRows: ROSTER_MAX_ROWS });
    const row: Record<string, string> = {};
    texts.forEach((text, index) => { const name = names![index]; if (name) row[name] = text.trim(); });
    rows.push({ line, cells: row });
  }
  if (!rows.length) throw invalid(ROSTER_MESSAGES.empty, { file: ROSTER_MESSAGES.empty });
  return rows;
}

/** A cell's text; a formula anywhere refuses the file (a CSV cell starting with "=" is one once Excel opens it). */
function cellText(value: unknown, index: number, line: number): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    if (value.trimStart().startsWith('=')) throwFormula(index, line);
    return value;
  }
  if (value instanceof Date) {
    // exceljs reads a date cell as midnight UTC of its day
    const [y, m, d] = value.toISOString().slice(0, 10).split('-');
    return `${m}/${d}/${y}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') {
    const cell = value as { formula?: unknown; sharedFormula?: unknown; richText?: { text: string }[]; text?: unknown; error?: unknown };
    if (cell.formula !== undefined || cell.sharedFormula !== undefined) throwFormula(index, line);
    if (cell.richText) return cell.richText.map((r) => r.text).join('');
    if (cell.text !== undefined) return cellText(cell.text, index, line);
    if (cell.error !== undefined) return String(cell.error);
  }
  return String(value);
}

function throwFormula(index: number, line: number): never {
  const message = ROSTER_MESSAGES.formula(cellAddress(index, line));
  throw invalid(message, { file: message }, { cell: cellAddress(index, line) });
}

/** A CSV's records, one spreadsheet row each; parsing stops just past the rows a roster may hold. */
function* csvRows(text: string): Iterable<{ line: number; cells: unknown[] }> {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  // Excel in many locales writes ";" between cells; the header line says which.
  const delimiter = [',', ';', '\t'].reduce((best, d) => (firstLine.split(d).length > firstLine.split(best).length ? d : best), ',');
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, to: ROSTER_MAX_ROWS + 2 });
  } catch {
    throw invalid(ROSTER_MESSAGES.unsupportedType, { file: ROSTER_MESSAGES.unsupportedType });
  }
  for (const [index, cells] of records.entries()) yield { line: index + 1, cells };
}

/** The first worksheet's rows, streamed from the zip; stops just past the rows a roster may hold. */
async function* xlsxRows(bytes: Buffer): AsyncIterable<{ line: number; cells: unknown[] }> {
  const { default: Excel } = await import('exceljs');
  const reader = new Excel.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore',
  } as never);
  let seen = 0;
  try {
    for await (const sheet of reader) {
      for await (const row of sheet as AsyncIterable<{ number: number; values: unknown[] }>) {
        // exceljs's row values start at index 1 (column A)
        yield { line: row.number, cells: Array.isArray(row.values) ? row.values.slice(1) : [] };
        seen += 1;
        if (seen > ROSTER_MAX_ROWS + 1 + 50) return; // past the limit (blank rows aside): rowsOf has refused it
      }
      return; // the first worksheet only (the template's "Choices" sheet is the second)
    }
  } catch (error) {
    if ((error as { name?: string }).name === 'Refusal') throw error;
    throw invalid(ROSTER_MESSAGES.unreadable, { file: ROSTER_MESSAGES.unreadable });
  }
}
