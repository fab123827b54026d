/**
 * A database of each test file's own, cloned from the run's migrated and seeded database (global setup), so test
 * files run side by side without meeting each other's rows, counters or settings. `CREATE DATABASE … TEMPLATE` copies
 * the files in well under a second where migrating and seeding takes seconds; the run's database is the template and
 * nothing else connects to it.
 *
 * The run's Temporal server is shared: each clone numbers its requests from a block of its own (a workflow id is
 * `request-<number>`: two files' request 50001 would otherwise meet in one workflow).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * The first number of block `block` (1, 2, …): `5<block>0000`, so every file's numbers look like the portal's (they
 * start with 5, as 50001 does; tests read them with /5\d{4,}/) and blocks never overlap: blocks with as many digits
 * are 10,000 apart, blocks with more digits are ten times higher. A file may number 9,999 requests.
 */
const firstOfBlock = (block: number) => Number(`5${block}0000`);

/** The database the current test file runs on (tests/setup/file-database.ts made it and set DATABASE_URL). */
export function fileDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url || url === inject('databaseUrl')) throw new Error('no database of this file: is tests/setup/file-database.ts a setupFile of this project?');
  return url;
}

/** The next free block number of this run (1, 2, …), claimed atomically with mkdir in the run's data folder. */
function claimBlock(): number {
  const dir = path.join(process.env.DATA_DIR!, 'request-number-blocks');
  mkdirSync(dir, { recursive: true });
  for (let block = 1; ; block++) {
    try {
      mkdirSync(path.join(dir, String(block)));
      return block;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Clones the run's database as `<run database>_<suffix>`, with request numbers from a block of its own. */
export async function cloneRunDatabase(suffix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const template = new URL(inject('databaseUrl'));
  const name = `${template.pathname.slice(1)}_${suffix}`;
  const admin = new URL(template);
  admin.pathname = '/postgres';
  const url = new URL(template);
  url.pathname = `/${name}`;
  const sql = async (connectionString: string, text: string) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try { await client.query(text); } finally { await client.end(); }
  };
  await sql(admin.toString(), `create database "${name}" template "${template.pathname.slice(1)}"`);
  const first = firstOfBlock(claimBlock());
  await sql(url.toString(), `update counters set last_request_number = ${first} where name = 'request'`);
  return { url: url.toString(), drop: () => sql(admin.toString(), `drop database if exists "${name}" with (force)`).catch(() => {}) };
}
