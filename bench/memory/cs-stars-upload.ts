/**
 * `tsx bench/memory/cs-stars-upload.ts [--rows 100000] [--at-once 1]`: a CS-STARS export uploaded through HTTP to the
 * API as production starts it (bench/api-process.ts: compiled, production node flags), as an administrator would, and
 * what it cost the API's memory: the upload's answer, the API's RSS peak during it and where its memory was then.
 * `--at-once N` sends N uploads of the same file together; `--list-limit N` asks the answer to list N claims. Uses the lists bench's kept database (its administrator;
 * LISTS_BENCH_DATABASE_URL to choose another) and bench/results/cs-stars-<rows>.csv (generated once).
 */
import { createWriteStream, existsSync, mkdirSync, openAsBlob } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startApiProcess } from '../api-process';
import { claimLines } from '../generate-cs-stars';
import { BENCH_ADMIN_EMAIL, LISTS_DATABASE_URL, seedListsDatabase } from '../seed-requests';
import { describePeak, type MemoryPeak } from './peak-sampler';

const argValue = (name: string, fallback: number) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : fallback; };
const ROWS = argValue('rows', 100_000);
const AT_ONCE = argValue('at-once', 1);
/** the claims the upload's answer lists (the form's `limit`; the API's page size, 10,000, by default) */
const LIST_LIMIT = process.argv.includes('--list-limit') ? argValue('list-limit', 0) : null;
const log = (line: string) => console.log(`[cs-stars-upload] ${line}`);
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;

async function csvFile(): Promise<string> {
  const results = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'results');
  mkdirSync(results, { recursive: true });
  const file = path.join(results, `cs-stars-${ROWS}.csv`);
  if (existsSync(file)) return file;
  log(`generating ${file}`);
  const out = createWriteStream(file);
  for (const line of claimLines(ROWS, 2026)) if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((r) => out.end(() => r()));
  return file;
}

async function main() {
  await seedListsDatabase(LISTS_DATABASE_URL, 100_000);
  const db = new pg.Client({ connectionString: LISTS_DATABASE_URL });
  await db.connect();
  const admin = (await db.query(`select id, session_version from users where email = $1`, [BENCH_ADMIN_EMAIL])).rows[0];
  await db.end();
  const file = await csvFile();
  const api = await startApiProcess({
    ...process.env, DATABASE_URL: LISTS_DATABASE_URL, TEMPORAL_ADDRESS: '127.0.0.1:1', DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'coi-cs-stars-')),
  }, log);
  const token = api.token({ id: admin.id, sessionVersion: admin.session_version });
  let failed = 0;
  try {
    log(`API ready, RSS ${mib(api.rssBytes())}; uploading ${path.basename(file)} ${AT_ONCE} at once`);
    await api.ask('peak');
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, async () => {
      const form = new FormData();
      if (LIST_LIMIT !== null) form.append('limit', String(LIST_LIMIT));
      form.append('file', await openAsBlob(file, { type: 'text/csv' }), path.basename(file));
      const res = await fetch(`${api.url}/api/v1/cs-stars`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      const body = await res.json() as { rows?: number; inserted?: number; updated?: number; data?: unknown[]; message?: string };
      return { status: res.status, rows: body.rows, inserted: body.inserted, updated: body.updated, listed: body.data?.length, message: body.message };
    }));
    const { peak } = await api.ask<{ peak: MemoryPeak }>('peak');
    for (const answer of answers) {
      if (answer.status !== 201) failed += 1;
      log(`answer ${answer.status}: ${JSON.stringify(answer)}`);
    }
    log(`${AT_ONCE} upload(s) in ${((Date.now() - started) / 1000).toFixed(1)} s; API ${describePeak(peak)}`);
    log(`API RSS high-water mark since its start: ${mib(api.hwmBytes())}`);
  } finally {
    await api.stop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => { console.error(error); process.exit(1); });
