/**
 * Export Requests (spec 2 §7.11): one xlsx row per submitted request in the date range and type filter, written
 * with exceljs's streaming WorkbookWriter from a `COPY (select …) TO STDOUT` stream, so memory stays flat however
 * many requests there are. The run is recorded (request_exports) with its progress, and the list of past exports
 * offers the files for download.
 */
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Orm } from '../../db/orm';
import { RequestExportSchema, type RequestExport } from '../../db/entities';
import { EXPORT_FILE_NAME, officeDay, officeDayAfter, officeDayStart, REQUEST_TYPE_FILTERS, requestTypeLabelOf } from '../../domain';
import { badRequest } from '../errors';

type Kind = 'text' | 'date' | 'number';
/** The columns an analyst needs, as [header, SQL expression, kind, width]. */
const COLUMNS: [string, string, Kind, number][] = [
  ['Request Number', 'request_number', 'number', 14],
  ['Request Type', 'request_type', 'text', 34],
  ['Certificate Type', 'certificate_type', 'text', 18],
  ['Auto Type', 'auto_type', 'text', 12],
  ['Status', 'status', 'text', 28],
  ['Submission Date', 'submit_date', 'date', 14],
  ['Completion Date', 'completed_date', 'date', 14],
  ['Requester Name', 'requester_name', 'text', 24],
  ['Requester Email', 'requester_email', 'text', 28],
  ['Requester Company', 'requester_company', 'text', 24],
  ['Employer Type', 'employer_type', 'text', 12],
  ['Source', 'source', 'text', 10],
  ['Clinician Last Name', 'last_name', 'text', 18],
  ['Clinician First Name', 'first_name', 'text', 18],
  ['Provider Type', 'provider_type', 'text', 28],
  ['Reason', 'reason', 'text', 28],
  ['Date From', 'date_from', 'date', 12],
  ['Date To', 'date_to', 'date', 12],
  ['Driver Name', 'driver_name', 'text', 18],
  ['VIN', 'vehicle_id_number', 'text', 20],
  ['Plate Number', 'plate_number', 'text', 12],
  ['Verified', 'verified', 'text', 9],
  ['Last Updated', 'updated_at', 'date', 14],
];

const sqlOf = (kind: Kind, column: string) =>
  kind === 'date' ? `(extract(epoch from ${column}) * 1000)::bigint` : kind === 'number' ? column : `${column}::text`;

export interface ExportInput { filename: string; dateFrom?: string; dateTo?: string; filterByType?: string }

function whereOf(input: ExportInput, timeZone: string): { where: string; values: unknown[] } {
  const where = [`status <> 'Draft'`, 'submit_date is not null'];
  const values: unknown[] = [];
  const from = input.dateFrom?.slice(0, 10);
  const to = input.dateTo?.slice(0, 10);
  if (from && to && from > to) throw badRequest('From date cannot be after To date', { dateFrom: 'From date cannot be after To date' });
  if (from) { values.push(officeDayStart(from, timeZone)); where.push(`submit_date >= $${values.length}`); }
  if (to) { values.push(officeDayAfter(to, timeZone)); where.push(`submit_date < $${values.length}`); }
  const type = input.filterByType;
  if (type) {
    if (!(REQUEST_TYPE_FILTERS as readonly string[]).includes(type)) throw badRequest('Unknown request type', { filterByType: 'Unknown request type' });
    if (type === REQUEST_TYPE_FILTERS[0]) where.push(`request_type = 'credentialing'`);
    else if (type === 'COI Request: Rental') where.push(`request_type = 'certificate' and certificate_type = 'Auto Liability' and auto_type = 'Rental'`);
    else {
      values.push(type.replace('COI Request: ', ''));
      where.push(`request_type = 'certificate' and certificate_type = $${values.length}`);
      if (type === 'COI Request: Auto Liability') where.push(`auto_type is distinct from 'Rental'`);
    }
  }
  return { where: where.join(' and '), values };
}

/** The escaped literal of a value for the COPY statement (COPY takes no bind parameters). */
/**
 * A date cell: the office's day of the instant, as midnight UTC of that day. Excel has no time zones: it shows the
 * serial's own day (numFmt 14), so an instant written as is would show its UTC day (tomorrow, after 16:00 in Portland).
 */
function excelDay(ms: number, timeZone: string): Date {
  return new Date(`${officeDay(ms, timeZone)}T00:00:00.000Z`);
}

function literal(value: unknown): string {
  if (value instanceof Date) return `'${value.toISOString()}'::timestamptz`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

const running = new Map<number, Promise<void>>();
/** For tests and shutdown: the export runs still writing. */
export const exportsRunning = () => [...running.values()];

export function exportPath(dataDir: string, storedName: string) {
  return path.join(dataDir, 'exports', storedName);
}

/** Records the run and starts writing; answers at once with the running export. */
/** `timeZone`: the office's, whose days the date range means and the sheet's dates show. */
export async function startExport(orm: Orm, dataDir: string, databaseUrl: string, input: ExportInput, createdBy: string, timeZone: string): Promise<RequestExport> {
  if (!EXPORT_FILE_NAME.test(input.filename)) throw badRequest('The file name must start with coi_export_', { filename: 'The file name must start with coi_export_' });
  const { where, values } = whereOf(input, timeZone);
  const em = orm.em.fork();
  const row = em.create(RequestExportSchema, {
    filename: `${input.filename}.xlsx`, storedName: `${randomBytes(12).toString('hex')}.xlsx`, state: 'running',
    dateFrom: input.dateFrom ? new Date(input.dateFrom) : null, dateTo: input.dateTo ? new Date(input.dateTo) : null,
    filterByType: input.filterByType ?? null, createdBy,
  } as never);
  await em.flush();
  const job = writeExport(orm, dataDir, databaseUrl, row.id, row.storedName, where, values, timeZone)
    .finally(() => running.delete(row.id));
  running.set(row.id, job);
  return row;
}

async function writeExport(orm: Orm, dataDir: string, databaseUrl: string, id: number, storedName: string, where: string, values: unknown[], timeZone: string) {
  const file = exportPath(dataDir, storedName);
  const client = new pg.Client({ connectionString: databaseUrl });
  const progress = async (patch: Partial<RequestExport>) => {
    await orm.em.fork().nativeUpdate(RequestExportSchema, { id }, { ...patch, updatedAt: new Date() } as never);
  };
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await client.connect();
    const total = Number((await client.query(`select count(*) as n from requests where ${where}`, values)).rows[0].n);
    await progress({ rowsTotal: total });

    // useStyles: false. With styles on, exceljs serializes every cell's style model (3× the time at 100,000 rows);
    // off, it still gives every Date cell Excel's built-in date format (numFmt 14, shown as m/d/yyyy), which is the
    // one style the sheet needs. Fast deflate: a somewhat larger file, written faster.
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      filename: file, useStyles: false, useSharedStrings: false, zip: { zlib: { level: 1 } },
    } as ConstructorParameters<typeof ExcelJS.stream.xlsx.WorkbookWriter>[0]);
    const sheet = workbook.addWorksheet('Requests', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = COLUMNS.map(([header, , , width]) => ({ header, key: header, width }));
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: COLUMNS.length } };
    sheet.getRow(1).commit();

    let sql = `select ${COLUMNS.map(([, column, kind]) => sqlOf(kind, column)).join(', ')}, certificate_type as ct, auto_type as at from requests where ${where} order by submit_date, id`;
    values.forEach((v, i) => { sql = sql.replace(`$${i + 1}`, literal(v)); });
    const stream = client.query(copyTo(`copy (${sql}) to stdout with (format csv)`));
    const records = stream.pipe(parse({ relax_column_count: true }));
    let written = 0;
    for await (const record of records as AsyncIterable<string[]>) {
      const cells = COLUMNS.map(([, , kind], i) => {
        const text = record[i];
        if (text === '' || text === undefined) return null;
        if (kind === 'date') return excelDay(Number(text), timeZone);
        if (kind === 'number') return Number(text);
        return text;
      });
      cells[1] = requestTypeLabelOf({ requestType: record[1], certificateType: record[COLUMNS.length] || null, autoType: record[COLUMNS.length + 1] || null });
      sheet.addRow(cells).commit();
      written += 1;
      if (written % 10000 === 0) await progress({ rowsWritten: written });
    }
    sheet.commit();
    await workbook.commit();
    const size = (await stat(file)).size;
    await progress({ rowsWritten: written, state: 'done', size });
  } catch (error) {
    await rm(file, { force: true }).catch(() => undefined);
    await progress({ state: 'failed', failure: (error as Error).message }).catch(() => undefined);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const listExports = (orm: Orm) => orm.em.fork().find(RequestExportSchema, {}, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 100 });
