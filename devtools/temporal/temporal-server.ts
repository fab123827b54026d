/**
 * The real Temporal server, not the dev server: `temporal-server` with PostgreSQL for persistence
 * and visibility, as production runs it, on this machine and without Docker.
 *
 *   - built once from the Go module proxy into ~/.cache/coi-portal/temporal-server-<version> (the server, Temporal's
 *     SQL tool and the PostgreSQL schema files), like the CLI (devtools/temporal/temporal-cli.ts); about 90 s when the CLI's
 *     modules are already downloaded;
 *   - a role and two databases of its own (`temporal`, `temporal_visibility`), apart from the portal's;
 *   - the schemas set up and brought to the latest version by Temporal's SQL tool (`setup-schema -v 0.0`, then
 *     `update-schema` from the versioned folders: the same steps temporalio/admin-tools runs in docker-compose.yml);
 *   - a config file written for the chosen ports, the namespace registered and the portal's search attributes added.
 *
 * Version 1.29.1 is the server the pinned CLI v1.5.1 embeds: the workflows run on the same server code in `npm test`'s
 * dev server and here.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { ensureSearchAttributes, freePort, freePortInRange, isPortOpen, killChild, parseAddress, type TemporalServerHandle } from './dev-server';
import { findGo, goInstallWithFallback, isExecutable, type Log } from './temporal-cli';
import { ensureRoleAndDatabases } from '../../db/least-privilege-role';

const TEMPORAL_SERVER_VERSION = 'v1.29.1';
const MODULE = 'go.temporal.io/server';

interface TemporalServerBuild { server: string; sqlTool: string; schemaDir: string }

/** `$XDG_CACHE_HOME or ~/.cache` + `/coi-portal/temporal-server-v1.29.1`. */
function cachedTemporalServerDir(env: NodeJS.ProcessEnv = process.env): string {
  const cacheHome = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'coi-portal', `temporal-server-${TEMPORAL_SERVER_VERSION}`);
}

/** The server, its SQL tool and the PostgreSQL schema folders, built and copied once. */
export async function ensureTemporalServerBuild(log: Log = (line) => console.log(line)): Promise<TemporalServerBuild> {
  const dir = cachedTemporalServerDir();
  const build = { server: path.join(dir, 'server'), sqlTool: path.join(dir, 'sql'), schemaDir: path.join(dir, 'schema', 'postgresql', 'v12') };
  if (isExecutable(build.server) && isExecutable(build.sqlTool) && fs.existsSync(path.join(build.schemaDir, 'visibility', 'versioned'))) return build;
  const go = findGo();
  if (!go) {
    throw new Error(`The Temporal server is not built yet and Go is not installed. Install Go >= 1.23 (the tarball from `
      + `https://go.dev/dl into /usr/local/go), or build it elsewhere: GOBIN=${dir} go install ${MODULE}/cmd/server@${TEMPORAL_SERVER_VERSION}`);
  }
  fs.mkdirSync(dir, { recursive: true });
  const started = Date.now();
  log(`Building the Temporal server ${TEMPORAL_SERVER_VERSION} and its SQL tool into ${dir} (one time, a few minutes)…`);
  for (const cmd of ['cmd/server', 'cmd/tools/sql']) {
    const result = await goInstallWithFallback(go, `${MODULE}/${cmd}@${TEMPORAL_SERVER_VERSION}`, dir, log);
    if (!result.ok) throw new Error(`Building ${MODULE}/${cmd} failed:\n${result.output.trim().split('\n').slice(-15).join('\n')}`);
  }
  // The schema files ship in the module's source, which `go install` left in the module cache.
  const modCache = spawnSync(go, ['env', 'GOMODCACHE'], { encoding: 'utf8' }).stdout.trim();
  const source = path.join(modCache, `${MODULE}@${TEMPORAL_SERVER_VERSION}`, 'schema', 'postgresql', 'v12');
  fs.cpSync(source, build.schemaDir, { recursive: true });
  log(`Temporal server built in ${Math.round((Date.now() - started) / 1000)} s`);
  return build;
}

interface TemporalServerOptions {
  /** A connection to the PostgreSQL server as a role that may create roles and databases (set-up only). */
  adminDatabaseUrl: string;
  /** host:port of the frontend, e.g. 127.0.0.1:7233 (a port below 32768: see freePortInRange) */
  address: string;
  /** where the config file is written */
  dataDir: string;
  /** Temporal's own role and databases (defaults: temporal / temporal, temporal, temporal_visibility) */
  user?: string;
  password?: string;
  database?: string;
  visibilityDatabase?: string;
  namespace?: string;
  /** Prometheus metrics of the server on this port (0 or absent: a free one) */
  metricsPort?: number;
  log?: Log;
  detached?: boolean;
  /** How long the spawned server may take to serve the namespace (default 120 s), counted from its spawn. */
  timeoutMs?: number;
  /** Finds or builds the binaries (default: ensureTemporalServerBuild; the first build takes minutes). */
  ensureBuild?: (log: Log) => Promise<TemporalServerBuild>;
  /** The clock the start deadline is read from (default Date.now; a test moves it on to stand in for a slow build). */
  now?: () => number;
}

function runSqlTool(build: TemporalServerBuild, env: Record<string, string>, args: string[]): void {
  const result = spawnSync(build.sqlTool, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`temporal-sql-tool ${args.join(' ')} failed:\n${(result.stderr || result.stdout).trim().split('\n').slice(-10).join('\n')}`);
}

/** Sets a database's schema up (first time) and updates it to the latest version (every time; a no-op when current). */
async function migrateSchema(build: TemporalServerBuild, host: string, port: number, user: string, password: string, database: string, kind: 'temporal' | 'visibility') {
  const env = { SQL_PLUGIN: 'postgres12', SQL_HOST: host, SQL_PORT: String(port), SQL_USER: user, SQL_PASSWORD: password, SQL_DATABASE: database };
  const client = new pg.Client({ host, port, user, password, database });
  await client.connect();
  const versioned = await client.query(`select 1 from information_schema.tables where table_name = 'schema_version'`).finally(() => client.end());
  if (!versioned.rowCount) runSqlTool(build, env, ['setup-schema', '-v', '0.0']);
  runSqlTool(build, env, ['update-schema', '-d', path.join(build.schemaDir, kind, 'versioned')]);
}

/** The server's configuration: PostgreSQL for both stores, every service on this host, ports chosen. */
function configYaml(o: { host: string; dbPort: number; user: string; password: string; database: string; visibilityDatabase: string; ports: Record<string, number>; dynamicConfig: string }): string {
  const store = (database: string, conns: number) => `
      sql:
        pluginName: "postgres12"
        databaseName: "${database}"
        connectAddr: "${o.host}:${o.dbPort}"
        connectProtocol: "tcp"
        user: "${o.user}"
        password: "${o.password}"
        maxConns: ${conns}
        maxIdleConns: ${conns}
        maxConnLifetime: "1h"`;
  const service = (name: string) => `
  ${name}:
    rpc:
      grpcPort: ${o.ports[`${name}Grpc`]}
      membershipPort: ${o.ports[`${name}Membership`]}
      bindOnLocalHost: true${name === 'frontend' ? `\n      httpPort: ${o.ports.frontendHttp}` : ''}`;
  return `log:
  stdout: true
  level: warn
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
    default:${store(o.database, 20)}
    visibility:${store(o.visibilityDatabase, 5)}
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
  metrics:
    prometheus:
      framework: "tally"
      timerType: "histogram"
      listenAddress: "127.0.0.1:${o.ports.metrics}"
services:${['frontend', 'history', 'matching', 'worker'].map(service).join('')}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:${o.ports.frontendGrpc}"
dcRedirectionPolicy:
  policy: "noop"
dynamicConfigClient:
  filepath: "${o.dynamicConfig}"
  pollInterval: "10s"
`;
}

/** Update-with-start needs these on (the dev server is started with the same values, devtools/temporal/dev-server.ts). */
const DYNAMIC_CONFIG = `frontend.enableUpdateWorkflowExecution:
  - value: true
frontend.enableExecuteMultiOperation:
  - value: true
system.enableActivityEagerExecution:
  - value: true
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the namespace (7 days' retention of closed runs) unless it exists, then waits until it serves. */
async function ensureNamespace(address: string, namespace: string, deadline: number, now: () => number): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: 5000 });
  try {
    try {
      await connection.workflowService.describeNamespace({ namespace });
    } catch {
      await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('7 days') })
        .catch((error: Error) => { if (!/already exists/i.test(error.message)) throw error; });
    }
    // Every service learns of a new namespace from its registry refresh (up to ~10 s): wait until a list works.
    for (;;) {
      try {
        await connection.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
        return;
      } catch (error) {
        if (now() > deadline) throw error;
        await sleep(500);
      }
    }
  } finally {
    await connection.close().catch(() => {});
  }
}

/** Sets up (once) and starts the real Temporal server; resolves when it serves the namespace with the search attributes. */
export async function startTemporalServer(options: TemporalServerOptions): Promise<TemporalServerHandle & { metricsUrl: string }> {
  const {
    adminDatabaseUrl, address, dataDir, user = 'temporal', password = 'temporal', database = 'temporal',
    visibilityDatabase = 'temporal_visibility', namespace = 'default', log = () => {}, detached = false, timeoutMs = 120_000,
    ensureBuild = ensureTemporalServerBuild, now = Date.now,
  } = options;
  const started = now();
  const build = await ensureBuild(log);
  const { host, port } = parseAddress(address);
  const db = new URL(adminDatabaseUrl);
  const dbHost = db.hostname;
  const dbPort = Number(db.port || 5432);

  await ensureRoleAndDatabases(adminDatabaseUrl, user, password, [database, visibilityDatabase]); // Temporal's own, apart from the portal's
  await migrateSchema(build, dbHost, dbPort, user, password, database, 'temporal');
  await migrateSchema(build, dbHost, dbPort, user, password, visibilityDatabase, 'visibility');
  log(`Temporal server: schemas of ${database} and ${visibilityDatabase} are current (${now() - started} ms)`);

  const ports: Record<string, number> = { frontendGrpc: port, metrics: options.metricsPort || await freePort() };
  for (const name of ['frontendMembership', 'frontendHttp', 'historyGrpc', 'historyMembership', 'matchingGrpc', 'matchingMembership', 'workerGrpc', 'workerMembership']) {
    // Every port of the server's own services below 32768 (freePortInRange says why).
    ports[name] = await freePortInRange();
  }
  const configDir = path.join(dataDir, 'config');
  fs.mkdirSync(configDir, { recursive: true });
  const dynamicConfig = path.join(configDir, 'dynamic-config.yaml');
  fs.writeFileSync(dynamicConfig, DYNAMIC_CONFIG);
  fs.writeFileSync(path.join(configDir, 'portal.yaml'), configYaml({ host: dbHost, dbPort, user, password, database, visibilityDatabase, ports, dynamicConfig }));

  // The deadline is the server's own: counted from here, not from before a first build that takes minutes (a
  // deadline that included the build killed the server as soon as it had started).
  const deadline = now() + timeoutMs;
  const child = spawn(build.server, ['--root', dataDir, '--config', 'config', '--env', 'portal', '--allow-no-auth', 'start'], {
    stdio: ['ignore', 'pipe', 'pipe'], detached,
  });
  let tail: string[] = [];
  let exited: string | null = null;
  let stopping = false;
  let serving = false;
  const keep = (chunk: Buffer) => {
    if (stopping) return;
    for (const line of chunk.toString().split('\n').filter((l) => l.trim())) {
      tail = [...tail.slice(-19), line.slice(0, 500)];
      // Its shards report errors while they are still being acquired at start: only a fatal line matters until it serves.
      if (/"level":"fatal"/.test(line) || (serving && /"level":"error"/.test(line))) log(`[temporal-server] ${line.slice(0, 300)}`);
    }
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('error', (error) => { exited = `could not start ${build.server}: ${error.message}`; });
  child.on('exit', (code, signal) => { exited ??= `exited with ${signal ?? `code ${code}`}`; });
  const stop = async () => {
    stopping = true;
    await killChild(child, 10_000);
  };

  while (!(await isPortOpen(host, port, 500))) {
    if (exited || now() > deadline) {
      await stop();
      throw new Error(`The Temporal server ${exited ?? `did not open ${address} within ${timeoutMs / 1000} s`}.\n${tail.join('\n')}`);
    }
    await sleep(250);
  }
  try {
    await ensureNamespace(address, namespace, deadline, now);
    await ensureSearchAttributes(address, namespace, log);
    serving = true;
  } catch (error) {
    await stop();
    throw new Error(`The Temporal server on ${address} did not serve namespace ${namespace}: ${(error as Error).message}\n${tail.join('\n')}`, { cause: error });
  }
  log(`Temporal server ${TEMPORAL_SERVER_VERSION} on ${address} (PostgreSQL ${dbHost}:${dbPort}/${database}), ready in ${Math.round((now() - started) / 100) / 10} s`);
  return { started: true, address, uiUrl: null, process: child, stop, metricsUrl: `http://127.0.0.1:${ports.metrics}/metrics` };
}
