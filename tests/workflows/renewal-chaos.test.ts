/**
 * A renewal run survives SIGKILL of every part: the portal runs as separate processes (the production build's API and
 * worker, a Temporal dev server keeping its state on disk), and while a run renews 24 certificates Temporal, the
 * worker and the API are each killed and started again, each once the run went on after the previous restart. The run finishes; each certificate is renewed exactly once
 * (one new letter superseding the old, one row of request_renewals), and every renewal email arrives (a copy sent
 * again after a kill carries the same Message-ID).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, inject, it } from 'vitest';
import { createCluster, type Cluster, type Target } from '../../bench/chaos/cluster';
import { dropDatabase } from '../../db/database';
import { kysely } from '../../db/kysely';
import { createOrm, type Orm } from '../../db/orm';
import { prepareDatabase } from '../../db/prepare-database';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER } from '../../db/seed-data';
import { startSmtpSink, type SmtpSink } from '../../devtools/smtp-sink';
import { freePort } from '../../devtools/temporal/dev-server';
import { STATUS } from '../../domain';
import { CERTIFICATE_PAYLOADS } from '../support/api-helpers';
import { eventually } from '../support/eventually';

const CERTIFICATES = 24;
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function startPortal(): Promise<{ cluster: Cluster; sink: SmtpSink; orm: Orm }> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'coi-renewal-chaos-'));
  await chmod(tmp, 0o755);
  cleanups.push(() => rm(tmp, { recursive: true, force: true }));
  const serverUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  serverUrl.pathname = `/coi_renewal_chaos_${process.pid}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = serverUrl.toString();
  const sink = await startSmtpSink();
  cleanups.push(() => sink.close());
  const { outDir } = inject('productionBuild');
  const cluster = createCluster({
    databaseUrl, temporalAddress: `127.0.0.1:${await freePort()}`, temporalDataDir: path.join(tmp, 'temporal'),
    dataDir: path.join(tmp, 'data'), smtpUrl: sink.url, apiPort: await freePort(), taskQueue: `renewal-chaos-${randomBytes(3).toString('hex')}`,
    workflowBundlePath: path.join(outDir, 'workflow-bundle.js'), distDir: outDir,
    // A run of one renewal a second and two letters at a time: each kill lands while most of it is still to do.
    env: { RENEWAL_MAX_WAITING: '2', RENEWAL_PER_SECOND: '1' },
  });
  await prepareDatabase(databaseUrl);
  cleanups.push(() => dropDatabase(databaseUrl));
  cleanups.push(() => cluster.stopAll());
  await cluster.startAll();
  const orm = await createOrm(databaseUrl, { poolMax: 2 });
  cleanups.push(() => orm.close());
  return { cluster, sink, orm };
}

it('kill -9 of Temporal, the worker and the API during a run: it finishes, and each certificate is renewed once', async () => {
  const { cluster, sink, orm } = await startPortal();
  const db = () => kysely(orm.em.fork());
  /** A click: asked again while the portal is down or answers "try again". */
  const call = async (token: string | null, method: string, url: string, body?: unknown) => eventually(async () => {
    try {
      const res = await fetch(`${cluster.baseUrl}/api/v1${url}`, {
        method, signal: AbortSignal.timeout(20_000),
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status === 503 || res.status >= 500) return undefined;
      return { status: res.status, body: await res.json() };
    } catch {
      return undefined;
    }
  }, 120_000, 300);
  const login = async (email: string, password: string) => (await call(null, 'POST', '/authentication', { strategy: 'local', email, password })).body.accessToken as string;
  const requester = await login(DEV_INTERNAL_REQUESTER.email, DEV_INTERNAL_REQUESTER.password);
  const admin = await login(DEV_ADMIN.email, DEV_ADMIN.password);

  const numbers = new Map<number, number>();
  for (let i = 0; i < CERTIFICATES; i++) {
    const created = await call(requester, 'POST', '/requests', {
      requestType: 'certificate', certificateType: 'Auto Liability', ...CERTIFICATE_PAYLOADS.Fleet,
      vehicleIdNumber: `1FTBR1C80MKA5${String(i).padStart(4, '0')}`, certificateHolderEmail: 'fleet@holder.example',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const submitted = await call(requester, 'PATCH', `/requests/${created.body.id}`, { status: STATUS.submitted });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    numbers.set(created.body.id, submitted.body.requestNumber);
    expect((await call(admin, 'PATCH', `/requests/${created.body.id}`, { status: STATUS.approved, verified: true })).status).toBe(200);
  }
  await eventually(async () => (await db().selectFrom('issued_letters').select('id').where('issued_at', 'is not', null).execute()).length === CERTIFICATES || undefined, 180_000);

  const list = await call(admin, 'GET', '/renewals/candidates');
  const ids = [...numbers.keys()];
  const started = await call(admin, 'POST', '/renewal-runs', {
    policyYearId: list.body.policyYear.id, mode: 'renew', from: list.body.window.from, to: list.body.window.to, requestIds: ids,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const runId = started.body.id as number;
  const renewedSoFar = async () => Number((await sql<{ n: number }>`select count(*)::int as n from request_renewals where run_id = ${runId}`.execute(db())).rows[0].n);

  // Each part killed once, in turn, each time the run has renewed more than before the last kill.
  const explain = async () => JSON.stringify({
    items: (await sql<{ state: string; outcome: string | null; n: number }>`select state, outcome, count(*)::int as n from renewal_items where run_id = ${runId} group by 1, 2`.execute(db())).rows,
    run: (await db().selectFrom('renewal_runs').select(['state']).where('id', '=', runId).executeTakeFirst()),
    errors: { worker: cluster.components.worker.errors?.slice(-5), api: cluster.components.api.errors?.slice(-5) },
  });
  let seen = 0;
  for (const target of ['temporal', 'worker', 'api'] as Target[]) {
    // The run went on since the last restart (read every 20 ms: it renews one a second), and is not done.
    const before = seen;
    const deadline = Date.now() + 120_000;
    while ((seen = await renewedSoFar()) <= before) {
      if (Date.now() > deadline) throw new Error(`the run did not go on before killing ${target} (${seen} renewed): ${await explain()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen, `${target} is killed mid-run`).toBeLessThan(CERTIFICATES);
    console.log(`[renewal chaos] ${seen} of ${CERTIFICATES} renewed: killing ${target}`);
    cluster.components[target].kill();
    await cluster.bringUp(target);
  }

  const progress = await eventually(async () => {
    const run = await call(admin, 'GET', `/renewal-runs/${runId}`);
    return run.body.state === 'finished' && run.body.progress.waiting === 0 ? run.body.progress : undefined;
  }, 300_000, 500);
  expect(progress).toMatchObject({ total: CERTIFICATES, done: CERTIFICATES, failed: 0, remaining: 0 });
  expect(await renewedSoFar()).toBe(CERTIFICATES);

  // One new letter each, superseding the one it renews.
  const letters = await db().selectFrom('issued_letters').select(['request_id', 'superseded_at']).where('request_id', 'in', ids).execute();
  for (const id of ids) {
    const own = letters.filter((l) => l.request_id === id);
    expect(own, `request ${id}`).toHaveLength(2);
    expect(own.filter((l) => !l.superseded_at), `request ${id}`).toHaveLength(1);
  }
  // Every renewal email arrived, to the requester and the holder; a copy sent again after a kill is the same message.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (const number of numbers.values()) {
    const mails = sink.messages().filter((m) => m.subject === `Request ${number}: certificate renewed`);
    for (const to of [DEV_INTERNAL_REQUESTER.email.toLowerCase(), 'fleet@holder.example']) {
      const copies = mails.filter((m) => m.envelope.to.includes(to));
      expect(copies.length, `request ${number} to ${to}`).toBeGreaterThanOrEqual(1);
      expect(new Set(copies.map((m) => m.messageId)).size, `request ${number} to ${to}: one message`).toBe(1);
    }
  }
}, 600_000);
