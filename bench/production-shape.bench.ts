/**
 * `npm run bench:shape [-- --requests 60 --concurrency 8]`: the request flow on the production shape
 * (compiled dist/, NODE_ENV=production, the real Temporal server on PostgreSQL, the reverse proxy), once with one API
 * and one worker and once with two and two, on the same machine in the same run: submit and approve call p50/p95,
 * submits per second, approve → approval email p50/p95, approvals with letter and email per second. Builds dist/ first.
 * Uses the local PostgreSQL as its administrator (DATABASE_URL's server) and databases of its own, dropped after.
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

const arg = (name: string, fallback: number) => Number(new RegExp(`--${name}[= ](\\d+)`).exec(process.argv.slice(2).join(' '))?.[1] ?? fallback);
const REQUESTS = arg('requests', 60);
const CONCURRENCY = arg('concurrency', 8);
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

async function run(replicas: number) {
  const tag = `bench${replicas}_${process.pid}`;
  const names = { portalRole: `coi_${tag}`, portalDatabase: `coi_${tag}`, temporalRole: 'coi_bench_temporal', temporalDatabase: `temporal_${tag}`, visibilityDatabase: `temporal_vis_${tag}` };
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-bench-shape-'));
  // The administrator signs in through the identity provider's stand-in: a password account never is one in production.
  const boss = { email: `bench-admin-${tag.replace(/_/g, '-')}@university.example`, firstName: 'Bench', lastName: `Boss${replicas}` };
  const shape = await startProductionShape({ adminDatabaseUrl: admin.toString(), dataDir, distDir: path.join(root, 'dist'), apis: replicas, workers: replicas, names,
    firstAdmin: boss, env: { OPEN_DRAFTS_QUOTA: '100000' } }); // one requester files every draft of the run
  try {
    const requester = { email: `bench-requester-${tag.replace(/_/g, '-')}@hospital.example`, password: 'Requester-Pass1' };
    await putAccounts(shape.databaseUrl, requester);
    const [who, chief]: Session[] = [await signIn(shape.url, requester), await signInWithSingleSignOn(shape.url, boss.email)];
    const ids: number[] = [];
    await pool(Array.from({ length: REQUESTS + 4 }, (_, i) => i), async () => { ids.push(await claimHistoryDraft(shape.url, who)); });
    // Warm-up: the first requests load the workflow bundle's cache and launch Chromium.
    const warm = ids.splice(0, 4);
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
    await pool(ids, async (id) => {
      const t = performance.now();
      const res = await api(shape.url, chief, 'PATCH', `/requests/${id}`, { status: 'Approved', verified: true });
      if (res.status !== 200) throw new Error(`approve ${id}: ${res.status} ${JSON.stringify(res.body)}`);
      approves.push(performance.now() - t);
      void shape.sink.waitFor((m) => m.subject.includes(`${numbers.get(id)} approved`), 120_000).then(() => toEmail.push(performance.now() - t));
    });
    while (toEmail.length < ids.length) await new Promise((resolve) => setTimeout(resolve, 50));
    const lettersSeconds = (performance.now() - approveStart) / 1000;
    const line = `${replicas} API + ${replicas} worker: submit ${summary(submits)}, ${(ids.length / submitSeconds).toFixed(1)} submits/s; `
      + `approve ${summary(approves)}; approve → email with letter ${summary(toEmail)}, ${(ids.length / lettersSeconds).toFixed(1)} approvals with letter and email/s`;
    log(line);
    return line;
  } finally {
    await shape.stop();
    await rm(dataDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    for (const db of [names.portalDatabase, names.temporalDatabase, names.visibilityDatabase]) await client.query(`drop database if exists "${db}" with (force)`).catch(() => undefined);
    await client.query(`drop role if exists "${names.portalRole}"`).catch(() => undefined);
    await client.end();
  }
}

await buildProduction({ log: () => {} });
log(`${REQUESTS} requests at concurrency ${CONCURRENCY}, ${os.cpus().length} cores`);
const lines = [await run(1), await run(2)];
console.log(`\n${lines.join('\n')}`);
process.exit(0);
