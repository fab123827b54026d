/**
 * The Export Requests sheet (spec 2 §7.11): one xlsx row per submitted request in the date range and type filter,
 * written with exceljs's streaming WorkbookWriter from a `COPY (select …) TO STDOUT` stream, so memory stays flat
 * however many requests there are. Shared by the API (which checks an export's input before recording it) and the
 * export activity on the worker (which writes the file: activities/exports/write-export.ts).
 */
import { parse } from 'csv-parse';
import type ExcelJS from 'exceljs';
import { sql, type RawBuilder } from 'kysely';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { inlineStatementText, queryOn } from '../../db/kysely';
import {
  AUTO_LIABILITY_CERTIFICATE, CERTIFICATE_LABEL_PREFIX, officeDay, officeDayAfter, officeDayStart, RENTAL_AUTO_TYPE, RENTAL_FILTER,
  REQUEST_TYPE_FILTERS, requestTypeLabelOf,
} from '../../domain';

/** An export's input the sheet cannot be made from: which field, and the message to show. */
export class ExportInputError extends Error {
  constructor(readonly field: string, message: string) { super(message); this.name = 'ExportInputError'; }
}

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

/**
 * The requests an export covers, as a condition. Its values are written into the statement (`sql.lit`, quoted by
 * Kysely): the sheet's rows come from a COPY, which takes no bound values.
 */
export function whereOf(input: ExportInput, timeZone: string): RawBuilder<unknown> {
  const where = [sql`status <> 'Draft'`, sql`submit_date is not null`];
  const from = input.dateFrom?.slice(0, 10);
  const to = input.dateTo?.slice(0, 10);
  if (from && to && from > to) throw new ExportInputError('dateFrom', 'From date cannot be after To date');
  if (from) where.push(sql`submit_date >= ${sql.lit(officeDayStart(from, timeZone))}::timestamptz`);
  if (to) where.push(sql`submit_date < ${sql.lit(officeDayAfter(to, timeZone))}::timestamptz`);
  const type = input.filterByType;
  if (type) {
    if (!(REQUEST_TYPE_FILTERS as readonly string[]).includes(type)) throw new ExportInputError('filterByType', 'Unknown request type');
    if (type === REQUEST_TYPE_FILTERS[0]) where.push(sql`request_type = 'credentialing'`);
    else if (type === RENTAL_FILTER) {
      where.push(sql`request_type = 'certificate' and certificate_type = ${sql.lit(AUTO_LIABILITY_CERTIFICATE)} and auto_type = ${sql.lit(RENTAL_AUTO_TYPE)}`);
    } else {
      const certificateType = type.slice(CERTIFICATE_LABEL_PREFIX.length);
      where.push(sql`request_type = 'certificate' and certificate_type = ${sql.lit(certificateType)}`);
      if (certificateType === AUTO_LIABILITY_CERTIFICATE) where.push(sql`auto_type is distinct from ${sql.lit(RENTAL_AUTO_TYPE)}`);
    }
  }
  return sql.join(where, sql` and `);
}

/**
 * A date cell: the office's day of the instant, as midnight UTC of that day. Excel has no time zones: it shows the
 * serial's own day (numFmt 14), so an instant written as is would show its UTC day (tomorrow, after 16:00 in Portland).
 */
function excelDay(ms: number, timeZone: string): Date {
  return new Date(`${officeDay(ms, timeZone)}T00:00:00.000Z`);
}

export function exportPath(dataDir: string, storedName: string) {
  return path.join(dataDir, 'exports', storedName);
}

/**
 * Writes the sheet of the requests matching `where` to `file` (replacing a part-written one an earlier attempt left),
 * calling `progress` with the total first and every 10,000 rows. Removes the file when it fails.
 */
export async function writeExportSheet(databaseUrl: string, file: string, where: RawBuilder<unknown>, timeZone: string,
  progress: (counts: { rowsTotal?: number; rowsWritten?: number }) => Promise<void>): Promise<{ rowsWritten: number; size: number }> {
  // Loaded here, by the worker's export activity only: the API imports this module for whereOf and exportPath, and
  // exceljs would add 7.8 MiB to every API process's heap (bench/memory/api-heap.ts).
  const { default: Excel } = await import('exceljs');
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await client.connect();
    const total = Number((await queryOn(client, sql<{ n: string }>`select count(*) as n from requests where ${where}`)).rows[0].n);
    await progress({ rowsTotal: total });
    // useStyles: false. With styles on, exceljs serializes every cell's style model (3× the time at 100,000 rows);
    // off, it still gives every Date cell Excel's built-in date format (numFmt 14, shown as m/d/yyyy), which is the
    // one style the sheet needs. Fast deflate: a somewhat larger file, written faster.
    const workbook = new Excel.stream.xlsx.WorkbookWriter({
      filename: file, useStyles: false, useSharedStrings: false, zip: { zlib: { level: 1 } },
    } as ConstructorParameters<typeof ExcelJS.stream.xlsx.WorkbookWriter>[0]);
    const sheet = workbook.addWorksheet('Requests', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = COLUMNS.map(([header, , , width]) => ({ header, key: header, width }));
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: COLUMNS.length } };
    sheet.getRow(1).commit();

    const columns = sql.raw(COLUMNS.map(([, column, kind]) => sqlOf(kind, column)).join(', '));
    const stream = client.query(copyTo(inlineStatementText(
      sql`copy (select ${columns}, certificate_type as ct, auto_type as at from requests where ${where} order by submit_date, id) to stdout with (format csv)`)));
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
    return { rowsWritten: written, size: (await stat(file)).size };
  } catch (error) {
    await rm(file, { force: true }).catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The input a recorded export was started with, as `whereOf` takes it (the row keeps the range's instants). */
export function exportInputOf(row: { dateFrom?: Date | null; dateTo?: Date | null; filterByType?: string | null }): ExportInput {
  return {
    filename: '',
    ...(row.dateFrom ? { dateFrom: row.dateFrom.toISOString() } : {}),
    ...(row.dateTo ? { dateTo: row.dateTo.toISOString() } : {}),
    ...(row.filterByType ? { filterByType: row.filterByType } : {}),
  };
}
