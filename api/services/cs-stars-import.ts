/**
 * CS-STARS claims import (spec 1 §3, §5; spec 2 §7.11), one pass over the upload stream feeding two consumers at
 * once:
 *   - PostgreSQL: the raw bytes go to `COPY claims_staging FROM STDIN (FORMAT csv, HEADER)` (pg-copy-streams) into a
 *     temporary all-text staging table, inside one transaction;
 *   - Node: the same bytes are parsed as a stream by csv-parse and every record is checked against spec 1 §3
 *     (lists, dates, money, required values, one claim per claim number and physician), keeping line numbers.
 * At the end a file with any bad line is rolled back and refused with the line numbers and reasons (nothing of it
 * is kept); a good file is merged into claims_data by one INSERT … ON CONFLICT in the same transaction, keyed by
 * claim number and physician, so uploading the same export again changes nothing (unchanged rows are not even
 * rewritten) and a newer export updates the claims it repeats.
 */
import { parse } from 'csv-parse';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { claimFieldOf, checkClaimRow, REQUIRED_CLAIM_FIELDS, type ClaimField } from '../../domain';
import { ApiError, badRequest } from '../errors';

export interface LineError { line: number; reasons: string[] }
export interface ImportResult { rows: number; inserted: number; updated: number; unchanged: number }

const MAX_REPORTED_LINES = 100;

/** The first line of the stream (the header), read without consuming the stream for the other readers. */
async function peekHeader(input: Readable): Promise<{ header: string; head: Buffer[] }> {
  const head: Buffer[] = [];
  let size = 0;
  for await (const chunk of input.iterator({ destroyOnReturn: false })) {
    head.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    const text = Buffer.concat(head).toString('utf8');
    const end = text.search(/\r?\n/);
    if (end >= 0 || size > 65536) return { header: end >= 0 ? text.slice(0, end) : text, head };
  }
  return { header: Buffer.concat(head).toString('utf8'), head };
}

/** SQL for a field of the staging row: text columns named c0..cN in the file's column order. */
function expressions(fields: (ClaimField | null)[]) {
  const col = (f: ClaimField) => {
    const i = fields.indexOf(f);
    return i < 0 ? `''` : `btrim(c${i})`;
  };
  const day = (f: ClaimField) => `((case when ${col(f)} ~ '^\\d{4}-' then ${col(f)}::date else to_date(${col(f)}, 'MM/DD/YYYY') end) + time '11:00') at time zone 'UTC'`;
  return {
    exportDate: day('exportDate'), claimDate: day('claimDate'), reportDate: day('reportDate'),
    indemnityPaid: `replace(replace(${col('indemnityPaid')}, '$', ''), ',', '')::numeric(15,2)`,
    middle: `coalesce(replace(${col('physicianMiddleInitial')}, '.', ''), '')`,
    text: (f: ClaimField) => `coalesce(${col(f)}, '')`,
  };
}

export async function importClaimsCsv(databaseUrl: string, input: Readable): Promise<ImportResult> {
  const { header, head } = await peekHeader(input);
  const headerRecord: string[] = await new Promise((resolve, reject) => {
    parse(header.replace(/^\uFEFF/, ''), { relax_quotes: true }, (error, records: string[][]) => (error ? reject(error) : resolve(records[0] ?? [])));
  }).catch(() => []) as string[];
  const fields = headerRecord.map(claimFieldOf);
  const missing = REQUIRED_CLAIM_FIELDS.filter((f) => !fields.includes(f));
  if (!headerRecord.length || missing.length) {
    input.resume();
    const reason = headerRecord.length ? `the header row lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` : 'the file is empty';
    throw badRequest('The file was not loaded: its header row is not a CS-STARS export.', {}, { lines: [{ line: 1, reasons: [reason] }], badLines: 1 });
  }

  // One source, two readers: the raw bytes to COPY, the same bytes to the checker.
  const toCopy = new PassThrough({ highWaterMark: 1 << 20 });
  const toCheck = new PassThrough({ highWaterMark: 1 << 20 });
  const feed = (async () => {
    // A reader that stopped (COPY refused the data) is skipped; the other one still reads to the end.
    const room = (stream: PassThrough) => new Promise<void>((r) => {
      const done = () => { stream.off('drain', done); stream.off('close', done); r(); };
      stream.once('drain', done);
      stream.once('close', done);
    });
    const write = async (chunk: Buffer) => {
      const a = toCopy.destroyed || toCopy.write(chunk);
      const b = toCheck.destroyed || toCheck.write(chunk);
      if (!a && !toCopy.destroyed) await room(toCopy);
      if (!b && !toCheck.destroyed) await room(toCheck);
    };
    try {
      for (const chunk of head) await write(chunk);
      for await (const chunk of input) await write(chunk as Buffer);
      if (!toCopy.destroyed) toCopy.end();
      if (!toCheck.destroyed) toCheck.end();
    } catch (error) {
      toCopy.destroy(error as Error);
      toCheck.destroy(error as Error);
      throw error;
    }
  })();

  const client = new pg.Client({ connectionString: databaseUrl });
  const errors: LineError[] = [];
  let badLines = 0;
  let rows = 0;
  const bad = (line: number, reasons: string[]) => {
    badLines += 1;
    if (errors.length < MAX_REPORTED_LINES) errors.push({ line, reasons });
  };

  const check = (async () => {
    const seen = new Map<string, number>();
    const parser = toCheck.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, from_line: 2 }));
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        rows += 1;
        if (record.length !== fields.length) {
          bad(info.lines, [`the line has ${record.length} values; the header has ${fields.length}`]);
          continue;
        }
        const values: Partial<Record<ClaimField, string>> = {};
        for (let i = 0; i < fields.length; i += 1) if (fields[i]) values[fields[i]!] = record[i];
        const { row, reasons } = checkClaimRow(values);
        if (!row) { bad(info.lines, reasons); continue; }
        const key = `${row.claimNumber}\u0000${row.physicianLastName}\u0000${row.physicianFirstName}\u0000${row.physicianMiddleInitial}`;
        const first = seen.get(key);
        if (first) bad(info.lines, [`claim ${row.claimNumber} for ${row.physicianFirstName} ${row.physicianLastName} is already on line ${first}`]);
        else seen.set(key, info.lines);
      }
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('FST_')) throw error;
      bad((error as { lines?: number }).lines ?? rows + 2, [`the file is not valid CSV: ${(error as Error).message}`]);
      toCheck.resume();
    }
  })();

  try {
    await client.connect();
    await client.query('begin');
    await client.query(`create temp table claims_staging (${fields.map((_, i) => `c${i} text`).join(', ')}) on commit drop`);
    const copied = pipeline(toCopy, client.query(copyFrom('copy claims_staging from stdin with (format csv, header true)')))
      .then(() => null, (error: Error) => error);
    const [, copyError] = await Promise.all([check, copied, feed]);
    if (badLines || copyError) {
      await client.query('rollback');
      if (!badLines) bad(0, [`the database refused the file: ${(copyError as Error).message}`]);
      const message = `The file was not loaded: ${badLines} line${badLines > 1 ? 's have' : ' has'} errors. Correct ${badLines > 1 ? 'them' : 'it'} and upload the file again.`;
      throw badRequest(message, {}, { lines: errors, badLines });
    }
    const x = expressions(fields);
    const text = ['physicianLastName', 'physicianFirstName', 'involvement', 'claimNumber', 'type', 'status', 'outcome', 'description'] as const;
    const merged = await client.query<{ inserted: string; changed: string }>(`
      with merged as (
        insert into claims_data (created_at, updated_at, export_date, physician_last_name, physician_first_name, physician_middle_initial,
          involvement, claim_number, type, status, outcome, claim_date, report_date, indemnity_paid, description)
        select now(), now(), ${x.exportDate}, ${x.text(text[0])}, ${x.text(text[1])}, ${x.middle}, ${x.text(text[2])}, ${x.text(text[3])},
          ${x.text(text[4])}, ${x.text(text[5])}, ${x.text(text[6])}, ${x.claimDate}, ${x.reportDate}, ${x.indemnityPaid}, ${x.text(text[7])}
        from claims_staging
        on conflict (claim_number, physician_last_name, physician_first_name, physician_middle_initial) do update set
          updated_at = now(), export_date = excluded.export_date, involvement = excluded.involvement, type = excluded.type,
          status = excluded.status, outcome = excluded.outcome, claim_date = excluded.claim_date, report_date = excluded.report_date,
          indemnity_paid = excluded.indemnity_paid, description = excluded.description
        where (claims_data.involvement, claims_data.type, claims_data.status, claims_data.outcome, claims_data.claim_date,
               claims_data.report_date, claims_data.indemnity_paid, claims_data.description)
          is distinct from (excluded.involvement, excluded.type, excluded.status, excluded.outcome, excluded.claim_date,
               excluded.report_date, excluded.indemnity_paid, excluded.description)
        returning (xmax = 0) as inserted)
      select count(*) filter (where inserted) as inserted, count(*) as changed from merged`);
    await client.query('commit');
    const inserted = Number(merged.rows[0].inserted);
    const updated = Number(merged.rows[0].changed) - inserted;
    return { rows, inserted, updated, unchanged: rows - inserted - updated };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    await Promise.allSettled([check, feed]);
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, 'The file is larger than the upload limit; nothing was loaded.');
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
