/**
 * CS-STARS claims import (spec 1 §3, §5; spec 2 §7.11): one pass over the upload stream feeding two consumers at once.
 *   - PostgreSQL (services/desk/cs-stars-merge.ts): the raw bytes go to `COPY … FROM STDIN (FORMAT csv, HEADER)`
 *     (pg-copy-streams) into a temporary all-text staging table inside one transaction, and as soon as the COPY ends
 *     the staging rows are merged into claims_data (and stale letters flagged) in that same, still open transaction;
 *   - Node (services/desk/cs-stars-check.ts): the same bytes parsed as a stream by csv-parse, every record checked
 *     against spec 1 §3, keeping line numbers.
 * Only when both are done is the transaction committed: a file with any bad line is rolled back and refused with the
 * line numbers and reasons (nothing of it is kept). Merging while the checker still reads the tail of the file is
 * what keeps the upload within 3× of a plain COPY (bench/desk.bench.ts): the checker is the slower reader, and the
 * merge no longer waits for it. A merge the database refuses on a line the checker also refuses is reported by line.
 * Keyed by claim number and physician, the same export uploaded again changes nothing (unchanged rows are not even
 * rewritten) and a newer export updates the claims it repeats.
 */
import { parse } from 'csv-parse';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { performance } from 'node:perf_hooks';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { claimFieldOf, REQUIRED_CLAIM_FIELDS } from '../../domain';
import { invalid, tooLarge } from '../refusals';
import { checkClaimLines, type LineError } from './cs-stars-check';
import { createStaging, mergeStaging, type MergeCounts } from './cs-stars-merge';

export type { LineError } from './cs-stars-check';
export interface ImportResult { rows: number; inserted: number; updated: number; unchanged: number; staleLetters: number }

/**
 * How far the checker may fall behind COPY, in bytes, before the upload waits for it. Well under a large export (a
 * 100,000-line export is 14 MB), so the file is never held whole in memory: past this, COPY reads at the checker's
 * pace. Measured with bench/cs-stars-upload.bench.ts: no slower than a 64 MB lag at 100,000 rows, and the buffers
 * the upload adds to the API's memory fell from the whole file to about this much.
 */
const CHECKER_LAG_BYTES = 4 << 20;

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

/** Milliseconds from the start of the import to the end of each phase, for the benchmark (bench/desk.bench.ts). */
export interface ImportTimings { copied?: number; merged?: number; checked?: number; committed?: number }

export async function importClaimsCsv(databaseUrl: string, input: Readable, timings: ImportTimings = {}): Promise<ImportResult> {
  const started = performance.now();
  const mark = (phase: keyof ImportTimings) => { timings[phase] = performance.now() - started; };
  const { header, head } = await peekHeader(input);
  const headerRecord: string[] = await new Promise((resolve, reject) => {
    parse(header.replace(/^\uFEFF/, ''), { relax_quotes: true }, (error, records: string[][]) => (error ? reject(error) : resolve(records[0] ?? [])));
  }).catch(() => []) as string[];
  const fields = headerRecord.map(claimFieldOf);
  const missing = REQUIRED_CLAIM_FIELDS.filter((f) => !fields.includes(f));
  if (!headerRecord.length || missing.length) {
    input.resume();
    const reason = headerRecord.length ? `the header row lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` : 'the file is empty';
    throw invalid('The file was not loaded: its header row is not a CS-STARS export.', {}, { lines: [{ line: 1, reasons: [reason] }], badLines: 1 });
  }

  // One source, two readers: the raw bytes to COPY, the same bytes to the checker. The checker may lag behind by
  // CHECKER_LAG_BYTES, so that COPY runs at the database's pace rather than the parser's, within bounded memory.
  const toCopy = new PassThrough({ highWaterMark: 1 << 20 });
  const toCheck = new PassThrough({ highWaterMark: CHECKER_LAG_BYTES });
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
  const check = checkClaimLines(toCheck, fields).finally(() => mark('checked'));

  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    await client.query('begin');
    const copySql = await createStaging(client, fields);
    // COPY then merge, while the checker is still reading; either may fail on a line the checker refuses.
    const loaded = pipeline(toCopy, client.query(copyFrom(copySql)))
      .then(() => { mark('copied'); return mergeStaging(client, fields); })
      .finally(() => mark('merged'))
      .then((counts): MergeCounts | Error => counts, (error: Error) => error);
    const [verdict, merged] = await Promise.all([check, loaded, feed]);
    if (verdict.badLines || merged instanceof Error) {
      await client.query('rollback');
      const lines: LineError[] = verdict.badLines ? verdict.errors : [{ line: 0, reasons: [`the database refused the file: ${(merged as Error).message}`] }];
      const badLines = verdict.badLines || 1;
      const message = `The file was not loaded: ${badLines} line${badLines > 1 ? 's have' : ' has'} errors. Correct ${badLines > 1 ? 'them' : 'it'} and upload the file again.`;
      throw invalid(message, {}, { lines, badLines });
    }
    await client.query('commit');
    mark('committed');
    const { inserted, updated, flagged } = merged;
    return { rows: verdict.rows, inserted, updated, unchanged: verdict.rows - inserted - updated, staleLetters: flagged };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    toCopy.destroy(); // no COPY reads it any more (a failed connect never started one): let the feed finish the checker
    await Promise.allSettled([check, feed]);
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge('The file is larger than the upload limit; nothing was loaded.');
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
