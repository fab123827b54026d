/**
 * `npm start` → `npm run portal` (Node 24): everything the portal needs on one machine, without Docker.
 *   1. PostgreSQL database: created, migrated and seeded (db/prepare-database.ts); when nothing answers at the default
 *      DATABASE_URL, an embedded PostgreSQL 15 with its cluster in data/postgres (devtools/postgres/embedded-postgres.ts)
 *   2. Temporal dev server with its state in data/temporal/temporal.sqlite (reused if one answers on TEMPORAL_ADDRESS)
 *   3. SMTP sink on 127.0.0.1:2525 (SMTP_SINK_PORT; mail kept in data/mail) + the outbox web page, unless SMTP_URL is set
 *   4. the UI build (ui/dist) when it is missing or older than the sources, and the development identity provider
 *      for single sign-on on 127.0.0.1:8026 (DEV_IDP_PORT) unless SAML_IDP_* names a real one; never in production
 *   5. the Temporal worker (worker/worker.ts, on the workflow bundle kept while its files are unchanged:
 *      devtools/temporal/workflow-bundle.ts) and the API (api/server.ts) as supervised child processes: once the
 *      portal is up, a child that crashes is restarted with exponential backoff (1 s, 2 s, 4 s … 30 s; back to 1 s
 *      after 10 s up) and the restart is reported (devtools/supervise.ts). A child that dies during start-up stops
 *      everything instead, with its output above: that is a broken build or configuration, not a crash.
 * Ctrl-C stops everything it started (nothing is restarted during the shutdown). Data survives restarts (database,
 * Temporal SQLite file, mail files).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serviceProviderUrls } from '../api/auth/saml/service-provider';
import { loadConfig, unsafeListenReason } from '../config/app-config';
import { createOrm, type Orm } from '../db/orm';
import { ensurePostgres, usesDefaultDatabase, type LocalPostgres } from '../devtools/postgres/embedded-postgres';
import { prepareDatabase } from '../db/prepare-database';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER, DEV_REQUESTER } from '../db/seed-data';
import { ensureTemporalServer, isPortOpen, type TemporalServerHandle } from '../devtools/temporal/dev-server';
import { startSmtpSink, type SmtpSink } from '../devtools/smtp-sink';
import { recentInboundMessages, startOutbox, type Outbox } from '../devtools/outbox-server';
import { startDevIdp, type DevIdp } from '../devtools/dev-idp/dev-idp-server';
import { describeExit, Supervisor, type ChildExit } from '../devtools/supervise';
import { cachedWorkflowBundle } from '../devtools/temporal/workflow-bundle';

/** Development-only knob of this script (not an app setting): where the SMTP sink listens. */
const SMTP_SINK_PORT = Number(process.env.SMTP_SINK_PORT ?? 2525);
/** Development-only: where the reply listener (mail-in/main.ts) listens unless INBOUND_SMTP_PORT says. */
const DEV_INBOUND_SMTP_PORT = 2526;
/** Development-only knob of this script: where the development identity provider listens. */
const DEV_IDP_PORT = Number(process.env.DEV_IDP_PORT ?? 8026);
const HEALTH_TIMEOUT_MS = 90_000;

const config = loadConfig();
const root = config.rootDir;
const log = (line: string) => console.log(`[portal] ${line}`);
const warn = (line: string) => console.error(`[portal] ${line}`);
/** A path relative to the repository when inside it, absolute otherwise. */
const show = (p: string) => (path.relative(root, p).startsWith('..') ? p : path.relative(root, p) || '.');
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

let temporal: TemporalServerHandle | null = null;
let postgres: LocalPostgres | null = null;
let sink: SmtpSink | null = null;
let outbox: Outbox | null = null;
let devIdp: { idp: DevIdp; orm: Orm } | null = null;
const children = new Map<string, Supervisor>();
let shuttingDown = false;
/** Set once the API answered its health check: from then on a crashed child is restarted. */
let portalUp = false;

async function shutdown(code: number, reason?: string): Promise<never> {
  if (shuttingDown) return new Promise<never>(() => {});
  shuttingDown = true;
  if (reason) (code === 0 ? log : warn)(reason);
  log('stopping…');
  // API first (stops taking requests), then the worker, then the infrastructure they use.
  for (const name of ['api', 'mail-in', 'worker']) await children.get(name)?.stop();
  await outbox?.close().catch(() => {});
  await inboundOrm?.close().catch(() => {});
  await devIdp?.idp.close().catch(() => {});
  await devIdp?.orm.close().catch(() => {});
  await sink?.close().catch(() => {});
  if (temporal?.started) {
    log('stopping the Temporal dev server…');
    await temporal.stop().catch(() => {});
  }
  if (postgres?.embedded) {
    log('stopping the embedded PostgreSQL…');
    await postgres.stop().catch(() => {});
  }
  log(code === 0 ? 'stopped' : `stopped (exit code ${code})`);
  process.exit(code);
}

// Last resort for abnormal exits: never leave children running (detached ones would survive us).
process.on('exit', () => {
  for (const child of [...[...children.values()].map((s) => s.child), temporal?.process]) {
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { try { child.kill('SIGKILL'); } catch { /* gone */ } }
    }
  }
});
let interrupts = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    interrupts += 1;
    if (interrupts > 2) {
      warn('forced exit');
      process.exit(130);
    }
    void shutdown(0, `${signal} received`);
  });
}

function newestMtime(dir: string, skip: Set<string>): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full, skip));
    else if (entry.isFile()) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function runToCompletion(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function buildUiIfStale(): Promise<void> {
  const uiDir = path.join(root, 'ui');
  if (!fs.existsSync(path.join(uiDir, 'vite.config.ts'))) {
    log('UI: ui/vite.config.ts does not exist yet; skipping the UI build');
    return;
  }
  const index = path.join(uiDir, 'dist', 'index.html');
  const builtAt = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const sourcesAt = newestMtime(uiDir, new Set(['dist', 'node_modules']));
  if (builtAt && builtAt >= sourcesAt) {
    log('UI: ui/dist is up to date');
    return;
  }
  const started = Date.now();
  log(builtAt ? 'UI: sources changed, rebuilding…' : 'UI: building…');
  const code = await runToCompletion([path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'ui/vite.config.ts', '--logLevel', 'warn']);
  if (code === 0) log(`UI: built in ${seconds(started)}`);
  else warn('UI: the build FAILED (see above); the API starts anyway but serves no UI until `npm run build:ui` succeeds');
}

/** Prefixes each output line of a child with [name]. */
function pipeLines(stream: NodeJS.ReadableStream, prefix: string, out: NodeJS.WriteStream) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) out.write(`${prefix} ${line}\n`);
  });
  stream.on('end', () => {
    if (pending) out.write(`${prefix} ${pending}\n`);
  });
}

/** What the reply listener received, for the outbox page (a small pool of its own, closed with the outbox). */
async function inboundListing(databaseUrl: string) {
  const orm = await createOrm(databaseUrl, { poolMax: 1 });
  inboundOrm = orm;
  return () => recentInboundMessages(orm);
}
let inboundOrm: Orm | null = null;

function startChild(name: string, entry: string, env: NodeJS.ProcessEnv): Supervisor {
  const supervisor = new Supervisor({
    name,
    command: process.execPath,
    args: ['--import', 'tsx', entry],
    // detached: Ctrl-C reaches only us; we stop the children in order
    spawnOptions: { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    shouldRestart: () => portalUp && !shuttingDown,
    log: warn,
  });
  children.set(name, supervisor);
  supervisor.on('spawn', (child: ChildProcess) => {
    pipeLines(child.stdout!, `[${name}]`, process.stdout);
    pipeLines(child.stderr!, `[${name}]`, process.stderr);
  });
  supervisor.on('exit', (exit: ChildExit) => {
    if (exit.restartInMs !== null || shuttingDown) return;
    void shutdown(1, `[${name}] ${entry} ${exit.error ? describeExit(exit) : `exited during start-up (${describeExit(exit)})`}; see its output above. Stopping everything.`);
  });
  return supervisor.start();
}

async function waitForHealth(url: string): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    if (shuttingDown) return new Promise<never>(() => {});
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await shutdown(1, `The API did not answer 200 on ${url} within ${HEALTH_TIMEOUT_MS / 1000} s (last: ${last}).`);
}

function box(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const bar = '─'.repeat(width + 2);
  return [`┌${bar}┐`, ...lines.map((l) => `│ ${l.padEnd(width)} │`), `└${bar}┘`].join('\n');
}

async function main() {
  const startedAt = Date.now();
  log(`Node ${process.version}, data in ${show(config.dataDir)}`);
  const unsafe = unsafeListenReason(config);
  if (unsafe) await shutdown(1, unsafe);

  // 1. Database: the server at DATABASE_URL, or an embedded one in data/postgres when nothing answers at the default
  let t = Date.now();
  postgres = await ensurePostgres({
    databaseUrl: config.databaseUrl, isDefault: usesDefaultDatabase(), clusterDir: path.join(config.dataDir, 'postgres'),
    persistent: true, log: (line) => log(line),
  });
  await prepareDatabase(config.databaseUrl, (line) => log(`database: ${line}`), { devAccounts: config.seedDevAccounts, samplePolicyYears: !config.production });
  log(`database ready in ${seconds(t)} (${new URL(config.databaseUrl).pathname.slice(1)})`);

  // Data directories
  const temporalDir = path.join(config.dataDir, 'temporal');
  const mailDir = path.join(config.dataDir, 'mail');
  for (const dir of [config.dataDir, config.uploadsDir, temporalDir, mailDir]) fs.mkdirSync(dir, { recursive: true });

  // 2. Temporal
  t = Date.now();
  const uiPort = Number(new URL(config.temporalUiUrl).port) || 8233;
  temporal = await ensureTemporalServer({
    address: config.temporalAddress,
    dataDir: temporalDir,
    uiPort,
    namespace: config.temporalNamespace,
    detached: true,
    log,
  });
  const temporalUiUrl = temporal.uiUrl ?? config.temporalUiUrl;
  if (!temporal.started) log(`Temporal: using ${config.temporalAddress} (${seconds(t)})`);

  // 3. Mail
  let smtpUrl = config.smtpUrl;
  if (smtpUrl) {
    log(`mail: sending through SMTP_URL=${smtpUrl} (no local outbox)`);
  } else {
    try {
      sink = await startSmtpSink({ port: SMTP_SINK_PORT, dir: mailDir, loadExisting: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      warn(`mail: port ${SMTP_SINK_PORT} is in use; the SMTP sink takes a random port instead`);
      sink = await startSmtpSink({ port: 0, dir: mailDir, loadExisting: true });
    }
    smtpUrl = sink.url;
    try {
      outbox = await startOutbox({ sink, port: config.outboxPort, inbound: await inboundListing(config.databaseUrl) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      warn(`mail: port ${config.outboxPort} is in use; the outbox takes a random port instead (set OUTBOX_PORT to choose)`);
      outbox = await startOutbox({ sink, port: 0, inbound: await inboundListing(config.databaseUrl) });
    }
    log(`mail: SMTP sink ${sink.url} (files in ${show(mailDir)}, ${sink.messages().length} kept), outbox ${outbox.url}`);
  }

  // Chromium (PDFs)
  if (!fs.existsSync(config.chromiumPath)) {
    warn(`Chromium not found at ${config.chromiumPath}: install it with  apt-get install -y chromium-headless-shell fonts-liberation fonts-dejavu-core  (or set CHROMIUM_PATH)`);
    warn('continuing: PDF generation will fail until Chromium is installed');
  }

  // 4. UI
  await buildUiIfStale();

  // Single sign-on: a development IdP unless a real one is configured (and never in production, where it refuses)
  const realIdp = config.saml.idpMetadataUrl ?? config.saml.idpEntryPoint;
  if (realIdp) log(`single sign-on: identity provider ${realIdp}`);
  else if (config.production) warn('single sign-on: not configured (set SAML_IDP_METADATA_URL, or SAML_IDP_ENTRY_POINT and SAML_IDP_CERT)');
  else {
    const orm = await createOrm(config.databaseUrl, { poolMax: 2 });
    const start = (port: number) => startDevIdp({ orm, dataDir: config.dataDir, port, serviceProvider: () => serviceProviderUrls(config) });
    let idp: DevIdp;
    try {
      idp = await start(DEV_IDP_PORT);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      warn(`single sign-on: port ${DEV_IDP_PORT} is in use; the development IdP takes a random port instead (set DEV_IDP_PORT to choose)`);
      idp = await start(0);
    }
    devIdp = { idp, orm };
    log(`single sign-on: development IdP ${idp.url} (key and certificate in ${show(path.join(config.dataDir, 'dev-idp'))})`);
  }

  // 5. Worker and API
  const entries = { worker: 'worker/worker.ts', api: 'api/server.ts', 'mail-in': 'mail-in/main.ts' } as const;
  const missing = Object.values(entries).filter((entry) => !fs.existsSync(path.join(root, entry)));
  if (missing.length) {
    await shutdown(1, `cannot start: ${missing.join(' and ')} ${missing.length > 1 ? 'do' : 'does'} not exist yet (the worker and API entry points are part of the app, not of this script).`);
  }
  const healthHost = ['0.0.0.0', '::'].includes(config.apiHost) ? '127.0.0.1' : config.apiHost;
  if (await isPortOpen(healthHost, config.apiPort)) {
    await shutdown(1, `port ${config.apiPort} is already in use (another \`npm start\`?). Stop that process or set PORT.`);
  }
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: config.databaseUrl,
    TEMPORAL_ADDRESS: config.temporalAddress,
    TEMPORAL_UI_URL: temporalUiUrl,
    SMTP_URL: smtpUrl,
    DATA_DIR: config.dataDir,
    ...(devIdp ? { SAML_IDP_METADATA_URL: devIdp.idp.metadataUrl } : {}),
    FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0'),
    // Replies by email: the development listener (the outbox lists what it received).
    INBOUND_SMTP_PORT: process.env.INBOUND_SMTP_PORT ?? String(DEV_INBOUND_SMTP_PORT),
  };
  // The workflows bundled once for this start and every restart of the worker, and kept for the next start while none
  // of their files changes (devtools/temporal/workflow-bundle.ts); if bundling fails here, the worker bundles itself.
  if (!childEnv.WORKFLOW_BUNDLE_PATH) {
    childEnv.WORKFLOW_BUNDLE_PATH = await cachedWorkflowBundle({ log }).catch((error: Error) => {
      warn(`the workflow bundle could not be prepared (${error.message.split('\n')[0]}); the worker bundles the workflows itself`);
      return undefined;
    });
  }
  log('starting the worker and the API…');
  startChild('worker', entries.worker, childEnv);
  startChild('api', entries.api, childEnv);
  startChild('mail-in', entries['mail-in'], childEnv);

  const healthUrl = `http://${healthHost.includes(':') ? `[${healthHost}]` : healthHost}:${config.apiPort}/api/v1/health`;
  await waitForHealth(healthUrl);
  portalUp = true;

  const credentials = config.seedDevAccounts
    ? [
      `Administrator:     ${DEV_ADMIN.email}  /  ${DEV_ADMIN.password}`,
      `Requester:         ${DEV_REQUESTER.email}  /  ${DEV_REQUESTER.password}`,
      `Internal (Employee): ${DEV_INTERNAL_REQUESTER.email}  /  ${DEV_INTERNAL_REQUESTER.password}`,
    ]
    : ['Development accounts: not seeded (NODE_ENV=production or SEED_DEV_ACCOUNTS=false)'];
  console.log('\n' + box([
    `COI request portal is running (started in ${seconds(startedAt)})`,
    '',
    `Portal:            ${config.publicUrl}`,
    `Temporal Web UI:   ${temporalUiUrl}`,
    `Mail outbox:       ${outbox ? outbox.url : `(external SMTP: ${smtpUrl})`}`,
    `Replies by email:  smtp://127.0.0.1:${childEnv.INBOUND_SMTP_PORT} (answer a portal email: its Reply-To reaches this listener; received mail shows in the outbox)`,
    `Single sign-on:    ${devIdp ? `${devIdp.idp.url} (development IdP: Sign in with university single sign-on, pick a person)` : realIdp ?? 'not configured'}`,
    '',
    ...credentials,
    '',
    'A crashed worker or API is restarted; Ctrl-C stops everything',
  ]) + '\n');
}

main().catch((error: Error) => {
  void shutdown(1, `start failed: ${error.message}`);
});
