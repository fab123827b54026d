/** Roster files as a requester's spreadsheet makes them (CSV text, xlsx workbooks), and their upload as the page sends it. */
import ExcelJS from 'exceljs';
import { rosterColumns, rosterExampleRow, type RosterKind } from '../../domain';
import type { Harness } from './portal-harness';
import type { Session } from './api-helpers';

const csvCell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** A CSV of the kind's template columns: the example row changed by each of `rows` (by field name). */
export function rosterCsv(kind: RosterKind, rows: Record<string, string>[], options: { headers?: string[] } = {}): string {
  const columns = rosterColumns(kind);
  const example = rosterExampleRow(kind);
  const headers = options.headers ?? columns.map((c) => c.label);
  const lines = [headers.map(csvCell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c.name] ?? example[c.name] ?? '')).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The same rows as an xlsx workbook; `formulaAt` puts a formula in one cell of the first data row (by field name). */
export async function rosterXlsx(kind: RosterKind, rows: Record<string, string>[], options: { formulaAt?: string } = {}): Promise<Buffer> {
  const columns = rosterColumns(kind);
  const example = rosterExampleRow(kind);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Roster');
  sheet.addRow(columns.map((c) => c.label));
  rows.forEach((row, index) => {
    sheet.addRow(columns.map((c) => (index === 0 && options.formulaAt === c.name ? { formula: 'CONCAT("A","B")', result: 'AB' } : row[c.name] ?? example[c.name] ?? '')));
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** `POST /rosters?kind=…` with one file, multipart as the browser sends it. */
export async function uploadRosterFile(h: Harness, session: Session, kind: RosterKind, bytes: Buffer | string, filename = 'roster.csv', contentType = 'text/csv') {
  const boundary = `----roster${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'utf8'), Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await h.app.inject({
    method: 'POST', url: `/api/v1/rosters?kind=${encodeURIComponent(kind)}`, payload,
    headers: { authorization: `Bearer ${session.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  return { status: res.statusCode, body: res.json() };
}
