/**
 * `npm run bench:roster [-- --rows 500 --kind Clinician]`: a roster of `--rows` rows from upload to every confirmation
 * email, on real parts in one process: PostgreSQL (a throw-away database coi_bench_roster_<pid>), a headless Temporal
 * dev server and the portal (API, request worker, SMTP sink).
 *
 *   read+check  the file read and every row checked by the form's rules (services/rosters/roster-file.ts, domain/roster-rows.ts)
 *   upload      POST /rosters: read, checked, kept, and every valid row made a draft
 *   submit      POST /rosters/:id/submit until no row is queued (each submitted through the submit use case)
 *   confirmed   from the submit until every request's confirmation email is in the sink
 *
 * Targets (rosters uploaded in bulk): 500 rows read and checked in ≤ 3 s; 500 submitted end to end (all confirmations
 * sent) in ≤ 2 minutes. Prints the machine's calibration figure (../shared/calibrate.mjs) beside them; exits 1 when a
 * row is not submitted or a confirmation is missing, or a target is missed (`--smoke`: not for a target).
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { dropDatabase, dropOrphanedDatabases } from '../db/database';
import { prepareDatabase } from '../db/prepare-database';
import { DEV_REQUESTER } from '../db/seed-data';
import { startPortalInProcess } from '../devtools/portal-in-process';
import { ensureTemporalServer, freePort } from '../devtools/temporal/dev-server';
import { isRosterKind, rosterColumns, rosterExampleRow, type RosterKind } from '../domain';
import { validateRosterRow } from '../domain/roster-rows';
import { readRosterFile } from '../services/rosters/roster-file';
import { calibration, runBench, stopLater, targetsFailTheRun } from './lifecycle';

const arg = (name: string, fallback: string) => new RegExp(`--${name}[= ](\\S+)`).exec(process.argv.slice(2).join(' '))?.[1] ?? fallback;
const ROWS = Number(arg('rows', '500'));
const KIND = arg('kind', 'Clinician');
const TARGETS = { checkMs: 3000, endToEndMs: 120_000 };
const log = (line: string) => console.log(`[bench:roster] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rosterCsv(kind: RosterKind, rows: number): Buffer {
  const columns = rosterColumns(kind);
  const example = rosterExampleRow(kind);
  const cell = (t: string) => (/[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
  const lines = [columns.map((c) => cell(c.label)).join(',')];
  for (let i = 0; i < rows; i++) lines.push(columns.map((c) => cell(c.name === 'lastName' ? `Bench${i}` : example[c.name] ?? '')).join(','));
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

async function main(): Promise<number> {
  if (!isRosterKind(KIND)) throw new Error(`--kind ${KIND}: not a roster kind`);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const file = rosterCsv(KIND, ROWS);

  const checkStarted = performance.now();
  const rows = await readRosterFile(file, KIND);
  const bad = rows.filter((r) => Object.keys(validateRosterRow(KIND, r.cells, { isExternal: true, today: '2026-12-01' }).errors).length).length;
  const checkMs = performance.now() - checkStarted;
  if (bad) throw new Error(`${bad} rows of the bench's file are invalid`);

  const serverUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  serverUrl.pathname = '/postgres';
  serverUrl.search = '';
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/coi_bench_roster_${process.pid}`;
  for (const name of await dropOrphanedDatabases(serverUrl.toString(), 'coi_bench_roster_')) log(`dropped stale database ${name}`);
  stopLater('drop the database', () => dropDatabase(dbUrl.toString()));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-bench-roster-'));
  stopLater('remove the data folder', () => rm(dataDir, { recursive: true, force: true }));
  const address = `127.0.0.1:${await freePort()}`;
  const [, server] = await Promise.all([prepareDatabase(dbUrl.toString()), ensureTemporalServer({ address, log: () => {} })]);
  stopLater('stop the Temporal dev server', () => server.stop());
  const portal = await startPortalInProcess({
    env: {
      ...process.env, DATABASE_URL: dbUrl.toString(), TEMPORAL_ADDRESS: address, TEMPORAL_TASK_QUEUE: `roster-${randomBytes(4).toString('hex')}`,
      DATA_DIR: dataDir, PORT: '0', OPEN_DRAFTS_QUOTA: '100000',
    },
  });
  stopLater('stop the portal', () => portal.stop());
  const sink = portal.sink!;
  const call = async (token: string | null, method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await portal.app.inject({
      method, url: `/api/v1${url}`, payload: body as string | Buffer | Record<string, unknown> | undefined,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });
    return { status: res.statusCode, body: (res.body ? JSON.parse(res.body) : null) as Record<string, any> };
  };
  const token = (await call(null, 'POST', '/authentication', { strategy: 'local', email: DEV_REQUESTER.email, password: DEV_REQUESTER.password })).body.accessToken as string;

  const boundary = `----bench${randomBytes(6).toString('hex')}`;
  const multipart = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    file, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploadStarted = performance.now();
  const uploaded = await call(token, 'POST', `/rosters?kind=${encodeURIComponent(KIND)}`, multipart, { 'content-type': `multipart/form-data; boundary=${boundary}` });
  const uploadMs = performance.now() - uploadStarted;
  if (uploaded.status !== 201 || uploaded.body.counts.draft !== ROWS) throw new Error(`upload answered ${uploaded.status}: ${JSON.stringify(uploaded.body).slice(0, 400)}`);
  const rosterId = uploaded.body.id as number;

  const mailsBefore = sink.messages().length;
  const submitStarted = performance.now();
  const submit = await call(token, 'POST', `/rosters/${rosterId}/submit`);
  if (submit.status !== 202) throw new Error(`submit answered ${submit.status}`);
  let roster: Record<string, any>;
  for (;;) {
    roster = (await call(token, 'GET', `/rosters/${rosterId}`)).body;
    if (!roster.submitting) break;
    await sleep(200);
  }
  const submittedMs = performance.now() - submitStarted;
  const confirmations = () => sink.messages().slice(mailsBefore).filter((m) => m.to.includes(DEV_REQUESTER.email) && / received/.test(m.subject)).length;
  while (confirmations() < roster.counts.submitted && performance.now() - submitStarted < 10 * 60_000) await sleep(200);
  const confirmedMs = performance.now() - submitStarted;

  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  log(`${ROWS} ${KIND} rows`);
  log(`read+check   ${Math.round(checkMs)} ms   (target ≤ ${TARGETS.checkMs} ms)`);
  log(`upload       ${s(uploadMs)}   (read, checked, kept, ${ROWS} drafts made)`);
  log(`submit       ${s(submittedMs)}   (${roster.counts.submitted} submitted, ${roster.counts.refused} refused)`);
  log(`confirmed    ${s(confirmedMs)}   (${confirmations()} confirmation emails; target ≤ ${s(TARGETS.endToEndMs)} from Submit all valid)`);
  log(`upload + submit + confirmed: ${s(uploadMs + confirmedMs)}`);
  const calibrated = calibration();
  if (calibrated) log(`calibrate: ${calibrated}`);
  const lost = roster.counts.submitted !== ROWS || confirmations() < ROWS;
  if (lost) { log('FAILED: a row was not submitted or a confirmation is missing'); return 1; }
  const missed = checkMs > TARGETS.checkMs || confirmedMs > TARGETS.endToEndMs;
  if (missed) log('a target was missed');
  else log('OK: every row submitted with its confirmation email');
  return missed && targetsFailTheRun ? 1 : 0;
}

runBench('bench:roster', main);
