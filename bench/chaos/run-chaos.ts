/**
 * Chaos run: submit/approve flows over HTTP while worker, API and Temporal are killed with SIGKILL at
 * random, plus kills aimed at the one duplicate-email window (the mail server has the message, the worker has not
 * marked it sent). Then it checks what users and operators would notice:
 *   - every request ends Approved, with its letter, and no email is missing;
 *   - no audit row is duplicated;
 *   - an email that arrived twice carries one Message-ID and its audit row says "(possibly twice)" (or "N times": never
 *     fewer than the copies that arrived);
 *   - every repeated click (a retry after an error, a double click, a click after success) is answered like the
 *     first: 200 with the same status, never "cannot be changed" or a Conflict.
 * Used by `npm run chaos` (bench/chaos/chaos.ts) and, short, by tests/workflows/chaos.test.ts.
 */
import { bundleWorkflowCode } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createOrm } from '../../db/orm';
import { dropDatabase } from '../../db/database';
import { prepareDatabase } from '../../db/prepare-database';
import { DEV_ADMIN, DEV_REQUESTER } from '../../db/seed-data';
import { startSmtpSink, type Received } from '../../devtools/smtp-sink';
import { freePort } from '../../devtools/temporal/dev-server';
import { WORKFLOW_BUNDLE_OPTIONS } from '../../worker/request-worker';
import { createCluster, type Target } from './cluster';

export interface ChaosOptions {
  requests: number;
  concurrency: number;
  /** random kills happen every minGapMs..maxGapMs while flows run */
  minGapMs: number;
  maxGapMs: number;
  /** random kills stop after this many (the flows then finish on a healthy portal) */
  maxKills: number;
  /** chance that an email reaching the mail server kills the worker before it hears "accepted" */
  emailWindowKillChance: number;
  maxEmailWindowKills: number;
  /** how long to wait, after the last flow, for every effect to go out */
  settleTimeoutMs: number;
  /** also crash PostgreSQL (an embedded server of the run's own, so the machine's is left alone) */
  crashPostgres?: boolean;
  /** run the worker and the API from this production build (scripts/build.ts, its workflow bundle included) */
  distDir?: string;
  log?: (line: string) => void;
}

export interface ChaosReport {
  requests: number;
  durationMs: number;
  kills: Record<Target | 'emailWindow', number>;
  clientRetries: number;
  repeatedClicks: number;
  emailsReceived: number;
  emailsPerRequest: number;
  duplicateEmails: number;
  possiblyTwiceRows: number;
  recoveryMs: Record<Target, { count: number; p50: number; p95: number; max: number }>;
  longestStallMs: number;
  /** for emails sent twice: time between the copy the dead worker sent and the one its successor sent */
  duplicateResentAfterMs: { count: number; p50: number; max: number };
  settleMs: number;
  violations: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (min: number, max: number) => min + Math.random() * (max - min);
const SAMPLE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** A status the client may retry: the service was down or did not answer in time. */
const retryable = (status: number) => status === 0 || status === 502 || status === 503 || status === 504;

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? ((line: string) => console.log(`[chaos] ${line}`));
  const violations: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  const started = Date.now();
  try {
    // ---- infrastructure -------------------------------------------------------------------------------------
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'coi-chaos-'));
    await chmod(tmp, 0o755); // an embedded PostgreSQL runs as the user postgres when we are root
    cleanups.push(() => rm(tmp, { recursive: true, force: true }));
    const serverUrl = new URL(options.crashPostgres ? `postgres://postgres@127.0.0.1:${await freePort()}/postgres`
      : process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    serverUrl.pathname = `/coi_chaos_${process.pid}_${randomBytes(3).toString('hex')}`;
    const databaseUrl = serverUrl.toString();
    const bundlePath = options.distDir ? path.join(options.distDir, 'workflow-bundle.js') : path.join(tmp, 'workflow-bundle.js');
    if (!options.distDir) await writeFile(bundlePath, (await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: undefined })).code);
    const sink = await startSmtpSink();
    cleanups.push(() => sink.close());
    const cluster = createCluster({
      databaseUrl, temporalAddress: `127.0.0.1:${await freePort()}`, temporalDataDir: path.join(tmp, 'temporal'),
      dataDir: path.join(tmp, 'data'), smtpUrl: sink.url, apiPort: await freePort(), taskQueue: `chaos-${randomBytes(3).toString('hex')}`,
      workflowBundlePath: bundlePath, distDir: options.distDir, postgresClusterDir: options.crashPostgres ? path.join(tmp, 'postgres') : undefined,
    });
    cleanups.push(() => cluster.stopAll());
    if (options.crashPostgres) await cluster.bringUp('postgres');
    await prepareDatabase(databaseUrl);
    if (!options.crashPostgres) cleanups.push(() => dropDatabase(databaseUrl)); // a crashed server's cluster goes with tmp
    await cluster.startAll();
    log(`portal up in ${((Date.now() - started) / 1000).toFixed(1)} s (API ${cluster.baseUrl})`);

    // ---- HTTP client: every call is a click; a failed click is clicked again ----------------------------------
    let clientRetries = 0;
    let repeatedClicks = 0;
    let lastSuccess = Date.now();
    let longestStallMs = 0;
    const call = async (token: string | null, method: string, url: string, body?: unknown) => {
      try {
        const res = await fetch(`${cluster.baseUrl}/api/v1${url}`, {
          method,
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}) },
          body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
        const text = await res.text();
        if (res.ok) {
          longestStallMs = Math.max(longestStallMs, Date.now() - lastSuccess);
          lastSuccess = Date.now();
        }
        return { status: res.status, body: text ? JSON.parse(text) : null };
      } catch {
        return { status: 0, body: null };
      }
    };
    /** Clicks until the portal answers; anything but success or "try again" is a violation. */
    const click = async (what: string, token: string, method: string, url: string, body?: unknown) => {
      for (let attempt = 0; ; attempt++) {
        const res = await call(token, method, url, body);
        if (res.status >= 200 && res.status < 300) return res.body;
        if (!retryable(res.status) || attempt > 400) {
          violations.push(`${what}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
          return null;
        }
        clientRetries++;
        await sleep(300);
      }
    };
    const login = async (email: string, password: string) =>
      (await click(`login ${email}`, '', 'POST', '/authentication', { strategy: 'local', email, password }))!.accessToken as string;
    const requester = await login(DEV_REQUESTER.email, DEV_REQUESTER.password);
    const admin = await login(DEV_ADMIN.email, DEV_ADMIN.password);

    const ids: number[] = [];
    for (let i = 0; i < options.requests; i++) {
      const created = await click('create draft', requester, 'POST', '/requests', {
        requestType: 'credentialing', lastName: 'Chaos', firstName: `Casey${i}`, birthDate: '1980-04-12T11:00:00.000Z',
        dateFrom: '2020-01-01T11:00:00.000Z', dateTo: '2024-12-31T11:00:00.000Z',
        providerType: 'Current Employee/Fellow/Resident', reason: 'Future employment', releaseAuthorized: true,
      });
      const form = new FormData();
      form.append('requestId', String(created.id));
      form.append('file', new Blob([SAMPLE_PDF], { type: 'application/pdf' }), 'release.pdf');
      const uploaded = await click('upload', requester, 'POST', '/upload', form);
      await click('document', requester, 'POST', '/documents', { requestId: created.id, filename: 'Signed release.pdf', description: 'Signed release', storedName: uploaded.storedName });
      ids.push(created.id);
    }
    log(`${ids.length} drafts ready; chaos starts`);

    // ---- the killer ---------------------------------------------------------------------------------------------
    const kills: ChaosReport['kills'] = { worker: 0, api: 0, temporal: 0, postgres: 0, emailWindow: 0 };
    const recoveries: Record<Target, number[]> = { worker: [], api: [], temporal: [], postgres: [] };
    let chaos = true;
    const restarting = new Set<Promise<void>>();
    const killAndRestart = (target: Target, aimed = false): boolean => {
      const component = cluster.components[target];
      if (!component.up) return false;
      component.kill();
      kills[aimed ? 'emailWindow' : target]++;
      const killedAt = Date.now();
      const downAtKill = (Object.keys(cluster.components) as Target[]).filter((t) => t !== target && !cluster.components[t].up);
      const restart = (async () => {
        await sleep(between(100, 1000));
        const ms = await cluster.bringUp(target);
        recoveries[target].push(ms);
        // Why a recovery was slow: what else was down when it was killed, and how long it was down in all.
        if (ms > 10_000) log(`slow recovery: ${target} back ${ms} ms after its restart began (${Date.now() - killedAt} ms after the kill); down at the kill: ${downAtKill.join(', ') || 'nothing else'}`);
      })();
      restarting.add(restart);
      void restart.finally(() => restarting.delete(restart));
      return true;
    };
    const unsubscribe = sink.subscribe(() => {
      // The sink calls this after it stored the message and before it answers "250 accepted".
      if (chaos && kills.emailWindow < options.maxEmailWindowKills && Math.random() < options.emailWindowKillChance) {
        void killAndRestart('worker', true);
      }
    });
    const killer = (async () => {
      const targets: Target[] = ['worker', 'api', 'temporal', ...(options.crashPostgres ? ['postgres' as const] : [])];
      let n = 0;
      while (chaos && n < options.maxKills) {
        await sleep(between(options.minGapMs, options.maxGapMs));
        if (!chaos) break;
        // round robin over the targets that are up: every target is hit
        for (let tries = 0; tries < targets.length; tries++) {
          if (killAndRestart(targets[n % targets.length])) break;
          n++;
        }
        n++;
      }
    })();

    // ---- the flows ----------------------------------------------------------------------------------------------
    let next = 0;
    const flow = async (id: number, index: number) => {
      const submitted = await click(`submit ${id}`, requester, 'PATCH', `/requests/${id}`, { status: 'Submitted' });
      if (!submitted) return;
      if (submitted.status !== 'Submitted') violations.push(`submit ${id} answered status ${submitted.status}`);
      const loaded = await click(`load ${id}`, admin, 'GET', `/requests/${id}`);
      const approve = { status: 'Approved', verified: true, version: loaded.version };
      const answers = index % 3 === 0
        ? await Promise.all([click(`approve ${id}`, admin, 'PATCH', `/requests/${id}`, approve), click(`approve ${id} (double click)`, admin, 'PATCH', `/requests/${id}`, approve)])
        : [await click(`approve ${id}`, admin, 'PATCH', `/requests/${id}`, approve)];
      if (index % 3 === 0) repeatedClicks++;
      if (index % 2 === 0) { // pressed again after it worked (the page was not reloaded)
        answers.push(await click(`approve ${id} (again after success)`, admin, 'PATCH', `/requests/${id}`, approve));
        repeatedClicks++;
      }
      for (const answer of answers) if (answer && answer.status !== 'Approved') violations.push(`approve ${id} answered status ${answer.status}`);
    };
    await Promise.all(Array.from({ length: options.concurrency }, async () => {
      while (next < ids.length) {
        const index = next++;
        await flow(ids[index], index);
      }
    }));
    chaos = false;
    unsubscribe();
    await killer;
    while (restarting.size) await Promise.all([...restarting]);
    for (const target of ['postgres', 'temporal', 'worker', 'api'] as Target[]) if (cluster.components[target] && !cluster.components[target].up) await cluster.bringUp(target);
    log(`flows done in ${((Date.now() - started) / 1000).toFixed(1)} s; kills ${JSON.stringify(kills)}; waiting for every effect`);

    // ---- settle and check ---------------------------------------------------------------------------------------
    const orm = await createOrm(databaseUrl, { poolMax: 2 });
    cleanups.push(() => orm.close());
    const sql = (text: string) => orm.em.getConnection().execute(text);
    const idList = ids.map(Number).join(','); // integers we created: safe to inline
    const settleStarted = Date.now();
    for (;;) {
      const [{ open }] = await sql(`select count(*)::int as open from requests where id in (${idList}) and status <> 'Approved'`);
      const [{ pending }] = await sql(`select count(*)::int as pending from request_effects where request_id in (${idList}) and state = 'pending'`);
      const [{ effects }] = await sql(`select count(*)::int as effects from request_effects where request_id in (${idList})`);
      if (open === 0 && pending === 0 && effects >= 2 * ids.length) break;
      if (Date.now() - settleStarted > options.settleTimeoutMs) {
        violations.push(`after ${options.settleTimeoutMs} ms: ${open} requests not Approved, ${pending} effects pending, ${effects} effects`);
        break;
      }
      await sleep(500);
    }
    await sleep(1500); // a late duplicate would still arrive
    const settleMs = Date.now() - settleStarted;

    const duplicateRows = await sql(`select request_id, activity_type, regexp_replace(activity_text, ' \\(possibly (twice|\\d+ times)\\)$', '') as text, count(*)::int as n
      from request_activity where request_id in (${idList}) group by 1, 2, 3 having count(*) > 1`);
    for (const row of duplicateRows) violations.push(`audit row ${row.n}× for request ${row.request_id}: ${row.text}`);
    const effects = await sql(`select request_id, template_title, state, message_id from request_effects where request_id in (${idList}) order by id`);
    for (const id of ids) {
      const own = effects.filter((e: any) => e.request_id === id);
      for (const title of ['Submission Confirmation', 'Credentialing Request Approved']) {
        const matching = own.filter((e: any) => e.template_title === title);
        if (matching.length !== 1) violations.push(`request ${id}: ${matching.length} "${title}" effects`);
        else if (matching[0].state !== 'sent') violations.push(`request ${id}: "${title}" ${matching[0].state}`);
      }
    }
    const letters = await sql(`select request_id, count(*)::int as n from documents where request_id in (${idList}) and idempotency_key is not null group by 1`);
    for (const id of ids) {
      const n = letters.find((l: any) => l.request_id === id)?.n ?? 0;
      if (n !== 1) violations.push(`request ${id}: ${n} letters`);
    }
    const twiceRows = await sql(`select count(*)::int as n from request_activity where request_id in (${idList}) and activity_text like '%(possibly %)'`);
    const byMessageId = new Map<string, Received[]>();
    for (const message of sink.messages()) byMessageId.set(message.messageId ?? '', [...(byMessageId.get(message.messageId ?? '') ?? []), message]);
    let duplicateEmails = 0;
    const duplicateGaps: number[] = []; // first copy → copy sent again after the worker died: how fast a dead worker is noticed
    const twiceTexts = await sql(`select a.request_id, a.activity_text from request_activity a where a.request_id in (${idList}) and a.activity_text like '%(possibly %)'`);
    for (const effect of effects) {
      const copies = byMessageId.get(effect.message_id) ?? [];
      if (copies.length === 0) violations.push(`request ${effect.request_id}: "${effect.template_title}" never reached the mail server`);
      if (copies.length > 1) {
        duplicateEmails += copies.length - 1;
        duplicateGaps.push(copies[copies.length - 1].receivedAt.getTime() - copies[0].receivedAt.getTime());
        const row = twiceTexts.find((t: any) => t.request_id === effect.request_id && t.activity_text.startsWith(`"${effect.template_title}"`));
        if (!row) violations.push(`request ${effect.request_id}: "${effect.template_title}" arrived ${copies.length}× without a "(possibly …)" audit row`);
        // The row says how many times it may have gone out: never fewer than it did.
        const said = /\(possibly twice\)$/.test(row?.activity_text ?? '') ? 2 : Number(/\(possibly (\d+) times\)$/.exec(row?.activity_text ?? '')?.[1] ?? 0);
        if (row && said < copies.length) violations.push(`request ${effect.request_id}: "${effect.template_title}" arrived ${copies.length}× but its audit row says ${said}`);
      }
      if (effect.template_title === 'Credentialing Request Approved' && copies.some((c) => c.attachments.filter((a) => a.contentType === 'application/pdf').length !== 1)) {
        violations.push(`request ${effect.request_id}: an approval email without exactly one PDF`);
      }
    }
    const known = new Set(effects.map((e: any) => e.message_id));
    for (const id of byMessageId.keys()) if (!known.has(id)) violations.push(`an email no effect accounts for: ${id}`);

    if (violations.length) {
      await explain(databaseUrl, cluster.temporalAddress, ids, sql, log);
      for (const line of cluster.components.api.errors ?? []) log(`api error: ${line}`);
    }

    const summary = (list: number[]) => {
      const sorted = [...list].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
      return { count: sorted.length, p50: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0, p95: at(0.95), max: sorted[sorted.length - 1] ?? 0 };
    };
    const received = sink.messages().length;
    return {
      requests: ids.length,
      durationMs: Date.now() - started,
      kills,
      clientRetries,
      repeatedClicks,
      emailsReceived: received,
      emailsPerRequest: received / ids.length,
      duplicateEmails,
      possiblyTwiceRows: twiceRows[0].n,
      recoveryMs: { worker: summary(recoveries.worker), api: summary(recoveries.api), temporal: summary(recoveries.temporal), postgres: summary(recoveries.postgres) },
      longestStallMs,
      duplicateResentAfterMs: summary(duplicateGaps),
      settleMs,
      violations,
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log(`cleanup: ${(error as Error).message}`));
  }
}

/** For requests that did not end Approved: what PostgreSQL and each workflow run say, to find out why. */
async function explain(
  _databaseUrl: string, temporalAddress: string, ids: number[], sql: (text: string) => Promise<any[]>, log: (line: string) => void,
): Promise<void> {
  const { Connection, Client } = await import('@temporalio/client');
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    const client = new Client({ connection });
    const rows = await sql(`select id, request_number, status, version, last_command_id from requests where id in (${ids.join(',')}) and status <> 'Approved'`);
    for (const row of rows) {
      log(`request ${row.id} #${row.request_number}: ${row.status} v${row.version} last ${row.last_command_id}`);
      for (const a of await sql(`select date, activity_type, activity_text, idempotency_key from request_activity where request_id = ${Number(row.id)} order by id`)) {
        log(`  audit ${a.date.toISOString?.() ?? a.date} ${a.activity_type} ${a.activity_text} [${a.idempotency_key}]`);
      }
      for await (const run of client.workflow.list({ query: `WorkflowId = "request-${row.request_number}"` })) {
        log(`  run ${run.runId} ${run.status.name} started ${run.startTime.toISOString()}`);
        if (run.status.name === 'RUNNING') {
          const state = await client.workflow.getHandle(run.workflowId, run.runId).query('state').catch((e: Error) => e.message);
          log(`    state query: ${JSON.stringify(state)}`);
        }
        const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
        for (const e of history.events ?? []) {
          const type = Object.keys(e).find((k) => k.endsWith('EventAttributes'));
          if (!type) continue;
          const attrs = (e as any)[type];
          const detail = attrs.acceptedRequest?.input?.name ?? attrs.request?.input?.name ?? attrs.activityType?.name ?? attrs.failure?.message ?? '';
          log(`    ${e.eventId} ${type.replace('EventAttributes', '')} ${detail}`);
        }
      }
    }
  } finally {
    await connection.close();
  }
}
