/**
 * `npm run bench:shape [-- --requests 60 --concurrency 8 --warmup 4 --replicas 1,2 --dist <dir>]`: the request flow on
 * the production shape (compiled dist/, NODE_ENV=production, the real Temporal server on PostgreSQL, the reverse
 * proxy), once with one API and one worker and once with two and two (`--replicas`), on the same machine in the same
 * run: submit and approve call p50/p95, submits per second, approve → approval email p50/p95, approvals with letter
 * and email per second. Builds dist/ first, unless `--dist` names a build to use (the suite's smoke run uses the run's
 * own). Uses the local PostgreSQL as its administrator (DATABASE_URL's server) and databases and roles of its own,
 * dropped after. Exits 1 when a call fails or an approval email does not arrive.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../config/app-config';
import { api, claimHistoryDraft, putAccounts, signIn, signInWithSingleSignOn, type Session } from '../devtools/portal-client';
import { startProductionShape } from '../devtools/production-shape';
import { buildProduction } from '../scripts/build';
import { runBench, stopLater, stopStarted } from './lifecycle';

const arg = (name: string, fallback: number) => Number(new RegExp(`--${name}[= ](\\d+)`).exec(process.argv.slice(2).join(' '))?.[1] ?? fallback);
const REQUESTS = arg('requests', 60);
const CONCURRENCY = arg('concurrency', 8);
const WARMUP = arg('warmup', 4);
const text = (name: string) => new RegExp(`--${name}[= ](\\S+)`).exec(process.argv.slice(2).join(' '))?.[1];
const REPLICAS = (text('replicas') ?? '1,2').split(',').map(Number);
const DIST = text('dist');
const root = fileURLToPath(new URL('..', import.meta.url));
const admin = new URL(loadConfig({ ...process.env, NODE_ENV: 'development' }).databaseUrl);
admin.pathname = '/postgres';
const log = (line: string) => console.log(`[bench:shape] ${line}`);

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
};
const summary = (values: number[]) => `p50 ${percentile(values, 0.5).toFixed(0)} ms, p95 ${percentile(values, 0.95).toFixed(0)} ms`;

async function pool<T>(items: T[], work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (next < items.length) await work(items[next++]); }));
}

/** Drops a shape's databases and roles. */
async function dropShapeData(names: { portalRole: string; portalRuntimeRole: string; portalDatabase: string; temporalRole: string; temporalDatabase: string; visibilityDatabase: string }) {
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    for (const db of [names.portalDatabase, names.temporalDatabase, names.visibilityDatabase]) await client.query(`drop database if exists "${db}" with (force)`).catch(() => undefined);
    for (const role of [names.portalRuntimeRole, names.portalRole, names.temporalRole]) await client.query(`drop role if exists "${role}"`).catch(() => undefined);
  } finally {
    await client.end();
  }
}

async function run(replicas: number, distDir: string) {
  const tag = `bench${replicas}_${process.pid}`;
  const names = {
    // Roles of the run's own: two runs on one PostgreSQL server (two checkouts' suites) must not change each other's passwords.
    portalRole: `coi_${tag}`, portalRuntimeRole: `coi_${tag}_app`, portalDatabase: `coi_${tag}`, temporalRole: `temporal_${tag}`,
    temporalDatabase: `temporal_${tag}`, visibilityDatabase: `temporal_vis_${tag}`,
  };
  stopLater(`drop the ${replicas} + ${replicas} shape's databases and roles`, () => dropShapeData(names));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-bench-shape-'));
  stopLater(`remove the ${replicas} + ${replicas} shape's data folder`, () => rm(dataDir, { recursive: true, force: true }));
  // The administrator signs in through the identity provider's stand-in: a password account never is one in production.
  const boss = { email: `bench-admin-${tag.replace(/_/g, '-')}@university.example`, firstName: 'Bench', lastName: `Boss${replicas}` };
  const shape = await startProductionShape({ adminDatabaseUrl: admin.toString(), dataDir, distDir, apis: replicas, workers: replicas, names,
    firstAdmin: boss, env: { OPEN_DRAFTS_QUOTA: '100000' } }); // one requester files every draft of the run
  stopLater(`stop the ${replicas} + ${replicas} shape`, () => shape.stop());
  const requester = { email: `bench-requester-${tag.replace(/_/g, '-')}@hospital.example`, password: 'Requester-Pass1' };
  await putAccounts(shape.databaseUrl, requester);
  const [who, chief]: Session[] = [await signIn(shape.url, requester), await signInWithSingleSignOn(shape.url, boss.email)];
  const ids: number[] = [];
  await pool(Array.from({ length: REQUESTS + WARMUP }, (_, i) => i), async () => { ids.push(await claimHistoryDraft(shape.url, who)); });
  // Warm-up: the first requests load the workflow bundle's cache and launch Chromium.
  const warm = ids.splice(0, WARMUP);
  for (const id of warm) {
    const { body } = await api(shape.url, who, 'PATCH', `/requests/${id}`, { status: 'Submitted' });
    await api(shape.url, chief, 'PATCH', `/requests/${id}`, { status: 'Approved', verified: true });
    await shape.sink.waitFor((m) => m.subject.includes(`${body.requestNumber} approved`), 60_000);
  }

  const submits: number[] = [];
  const numbers = new Map<number, number>();
  const submitStart = performance.now();
  await pool(ids, async (id) => {
    const t = performance.now();
    const res = await api(shape.url, who, 'PATCH', `/requests/${id}`, { status: 'Submitted' });
    if (res.status !== 200) throw new Error(`submit ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    submits.push(performance.now() - t);
    numbers.set(id, res.body.requestNumber);
  });
  const submitSeconds = (performance.now() - submitStart) / 1000;

  const approves: number[] = [];
  const toEmail: number[] = [];
  const approveStart = performance.now();
  const emails: Array<Promise<unknown>> = [];
  await pool(ids, async (id) => {
    const t = performance.now();
    const res = await api(shape.url, chief, 'PATCH', `/requests/${id}`, { status: 'Approved', verified: true });
    if (res.status !== 200) throw new Error(`approve ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    approves.push(performance.now() - t);
    emails.push(shape.sink.waitFor((m) => m.subject.includes(`${numbers.get(id)} approved`), 120_000).then(() => toEmail.push(performance.now() - t)));
  });
  await Promise.all(emails); // one that does not arrive fails the run
  const lettersSeconds = (performance.now() - approveStart) / 1000;
  const line = `${replicas} API + ${replicas} worker: submit ${summary(submits)}, ${(ids.length / submitSeconds).toFixed(1)} submits/s; `
    + `approve ${summary(approves)}; approve → email with letter ${summary(toEmail)}, ${(ids.length / lettersSeconds).toFixed(1)} approvals with letter and email/s`;
  log(line);
  return line;
}

runBench('bench:shape', async () => {
  const distDir = DIST ? path.resolve(DIST) : path.join(root, 'dist');
  if (!DIST) await buildProduction({ log: () => {} });
  log(`${REQUESTS} requests at concurrency ${CONCURRENCY}, ${os.cpus().length} cores; ${path.relative(root, distDir)}/`);
  const lines: string[] = [];
  for (const replicas of REPLICAS) {
    lines.push(await run(replicas, distDir));
    await stopStarted(); // each shape alone on the machine: the next starts after this one stopped
  }
  console.log(`\n${lines.join('\n')}`);
});
