/**
 * CS-STARS claims import (spec 1 §3, §5; spec 2 §7.11). The CSV is parsed as a stream (csv-parse); every record is
 * checked against spec 1 §3 and, while the file streams, copied with `COPY … FROM STDIN` (pg-copy-streams) into
 * a temporary staging table inside one transaction. At the end: a file with any bad line is rolled back and
 * refused with the line numbers and reasons (nothing of it is kept); a good file is merged into claims_data in
 * the same transaction, keyed by claim number and physician, so uploading the same export again updates rows
 * instead of adding them.
 */
import { parse } from 'csv-parse';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CLAIM_COLUMNS, claimFieldOf, checkClaimRow, DESK_MESSAGES, REQUIRED_CLAIM_FIELDS, type ClaimField, type ClaimRow } from '../../domain';
import { badRequest } from '../errors';

export interface LineError { line: number; reasons: string[] }
export interface ImportResult { rows: number; inserted: number; updated: number }

const MAX_REPORTED_LINES = 100;
const STAGING_COLUMNS = CLAIM_COLUMNS.map(([field]) => field);

/** COPY text format: tab-separated, backslash escapes. */
const copyValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
const copyLine = (row: ClaimRow) => STAGING_COLUMNS.map((f) => copyValue(row[f])).join('\t') + '\n';

export class CsvRefused extends Error {
  constructor(readonly lines: LineError[], readonly badLines: number, message: string) { super(message); }
}

/**
 * Loads one CSV stream. `onRow` is told how many data rows were read (for progress). Throws a 400 (BadRequest)
 * listing the bad lines when any line is bad; the database is then unchanged.
 */
export async function importClaimsCsv(databaseUrl: string, input: Readable, onRow?: (rows: number) => void): Promise<ImportResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const errors: LineError[] = [];
  let badLines = 0;
  let rows = 0;
  try {
    await client.query('begin');
    await client.query(`create temp table claims_staging (
      "exportDate" date, "physicianLastName" text, "physicianFirstName" text, "physicianMiddleInitial" text, "involvement" text,
      "claimNumber" text, "type" text, "status" text, "outcome" text, "claimDate" date, "reportDate" date,
      "indemnityPaid" numeric(15,2), "description" text) on commit drop`);
    const copy = client.query(copyFrom(`copy claims_staging (${STAGING_COLUMNS.map((c) => `"${c}"`).join(', ')}) from stdin`));
    const out = new PassThrough({ highWaterMark: 1 << 20 });
    const copied = pipeline(out, copy);

    let fields: (ClaimField | null)[] | null = null;
    const parser = input.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true }));
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        if (!fields) {
          fields = record.map(claimFieldOf);
          const missing = REQUIRED_CLAIM_FIELDS.filter((f) => !fields!.includes(f));
          if (missing.length) {
            errors.push({ line: info.lines, reasons: [`the header row lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`] });
            badLines += 1;
            break;
          }
          continue;
        }
        rows += 1;
        const values: Partial<Record<ClaimField, string>> = {};
        fields.forEach((f, i) => { if (f) values[f] = record[i]; });
        const { row, reasons } = checkClaimRow(values);
        if (!row) {
          badLines += 1;
          if (errors.length < MAX_REPORTED_LINES) errors.push({ line: info.lines, reasons });
        } else if (!badLines && !out.write(copyLine(row))) {
          await new Promise((resolve) => out.once('drain', resolve));
        }
        if (onRow && rows % 5000 === 0) onRow(rows);
      }
    } catch (error) {
      badLines += 1;
      errors.push({ line: (error as { lines?: number }).lines ?? rows + 1, reasons: [`the file is not valid CSV: ${(error as Error).message}`] });
    }
    out.end();
    await copied;
    if (!fields) { badLines += 1; errors.push({ line: 1, reasons: ['the file is empty'] }); }
    if (badLines) {
      await client.query('rollback');
      const message = `The file was not loaded: ${badLines} line${badLines > 1 ? 's have' : ' has'} errors. Correct ${badLines > 1 ? 'them' : 'it'} and upload the file again.`;
      throw badRequest(message, {}, { lines: errors, badLines });
    }
    // One claim per claim number and physician: the file's last line wins, then the merge updates or inserts.
    const merged = await client.query<{ inserted: string; total: string }>(`
      with merged as (insert into claims_data (created_at, updated_at, export_date, physician_last_name, physician_first_name, physician_middle_initial,
        involvement, claim_number, type, status, outcome, claim_date, report_date, indemnity_paid, description)
      select distinct on ("claimNumber", "physicianLastName", "physicianFirstName", "physicianMiddleInitial")
        now(), now(), ("exportDate" + time '11:00') at time zone 'UTC', "physicianLastName", "physicianFirstName", "physicianMiddleInitial",
        "involvement", "claimNumber", "type", "status", "outcome", ("claimDate" + time '11:00') at time zone 'UTC',
        ("reportDate" + time '11:00') at time zone 'UTC', "indemnityPaid", "description"
      from claims_staging
      order by "claimNumber", "physicianLastName", "physicianFirstName", "physicianMiddleInitial", ctid desc
      on conflict (claim_number, physician_last_name, physician_first_name, physician_middle_initial) do update set
        updated_at = now(), export_date = excluded.export_date, involvement = excluded.involvement, type = excluded.type,
        status = excluded.status, outcome = excluded.outcome, claim_date = excluded.claim_date, report_date = excluded.report_date,
        indemnity_paid = excluded.indemnity_paid, description = excluded.description
      returning (xmax = 0) as inserted)
      select count(*) filter (where inserted) as inserted, count(*) as total from merged`);
    await client.query('commit');
    const inserted = Number(merged.rows[0].inserted);
    return { rows, inserted, updated: Number(merged.rows[0].total) - inserted };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const CSV_REQUIRED = DESK_MESSAGES.csvRequired;
