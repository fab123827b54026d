/**
 * The production topology on one machine, without Docker, as docker-compose.yml describes it:
 *   - PostgreSQL with two roles for the portal (db/least-privilege-role.ts): the owner of its database, which only
 *     migrates, and the runtime role the APIs and workers connect as (rows only; the security log append-only); and one
 *     role for Temporal;
 *   - the real Temporal server on PostgreSQL (devtools/temporal/temporal-server.ts), not the dev server;
 *   - a real SMTP server standing in for the university's relay (devtools/smtp-sink.ts: mail kept as .eml files), and
 *     a SAML identity provider standing in for the university's (devtools/dev-idp: it signs in whom the directory
 *     lists), with the first administrator put on the admin list and in the directory;
 *   - the compiled portal (`npm run build` → dist/) with NODE_ENV=production: `dist/migrate.js` once, then N workers and
 *     N APIs (two of each by default), each kept running by a supervisor (devtools/supervise.ts: a crash restarts it);
 *   - a reverse proxy in front that spreads requests over the APIs: @fastify/reply-from with undici's BalancedPool
 *     (a failing API loses weight, so traffic moves to the other while it restarts), passing X-Forwarded-For, which
 *     the APIs trust from 127.0.0.1 only (TRUST_PROXY).
 * Secrets (the JWT secret, the roles' passwords) are generated once into <dataDir>/secrets.json (mode 600).
 * Each process's output (JSON lines at LOG_LEVEL info, as production writes them) is appended to
 * <dataDir>/logs/<name>.log; the proxy gives every call an `x-request-id`, so a command's `reqId` finds its lines in
 * the API's log and its workflow's activities in the workers'.
 * Used by `npm run start:production-shape` (scripts/start-production-shape.ts) and tests/infra/production-shape.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import replyFrom from '@fastify/reply-from';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { serviceProviderUrls } from '../api/auth/saml/service-provider';
import { AdminSchema, PersonSchema } from '../db/entities';
import { ensureLoginRole, ensureRoleAndDatabases } from '../db/least-privilege-role';
import { createOrm, type Orm } from '../db/orm';
import { Supervisor } from './supervise';
import { freePort, freePortInRange } from './temporal/dev-server';
import { startTemporalServer } from './temporal/temporal-server';
import { startDevIdp } from './dev-idp/dev-idp-server';
import { startSmtpSink, type SmtpSink } from './smtp-sink';
import { LETTER_CHROMIUM_PATH } from '../config/app-config';
import { loadOrCreateDevelopmentP12 } from '../activities/pdf/letter-signing-key';
import { API_NODE_FLAGS, API_PROCESS_ENV } from '../config/api-process';

type Log = (line: string) => void;

interface ProductionShapeOptions {
  /** A PostgreSQL administrator's connection (creates the roles and databases once). */
  adminDatabaseUrl: string;
  /** Where secrets, files, mail and Temporal's config live. */
  dataDir: string;
  /** The compiled portal (`npm run build`). */
  distDir: string;
  apis?: number;
  workers?: number;
  /** The proxy's port, the one address users open (0: a free one). */
  port?: number;
  /** Names of the roles and databases (tests use their own). */
  names?: Partial<typeof DEFAULT_NAMES>;
  chromiumPath?: string;
  /** More settings for every portal process. */
  env?: Record<string, string>;
  /**
   * The first administrator: put on the admin list and in the directory, so that they sign in through the identity
   * provider's stand-in (which proves the address) and are an administrator from then on.
   */
  firstAdmin?: { email: string; firstName: string; lastName: string };
  log?: Log;
}

const DEFAULT_NAMES = {
  portalRole: 'coi_portal_shape', portalRuntimeRole: 'coi_portal_shape_app', portalDatabase: 'coi_portal_shape',
  temporalRole: 'temporal_shape', temporalDatabase: 'temporal_shape', visibilityDatabase: 'temporal_shape_visibility',
};

export interface ProductionShape {
  /** The proxy: what users open. */
  url: string;
  apiUrls: string[];
  /** The portal's own connection (its runtime role, which cannot change tables). */
  databaseUrl: string;
  /** The database owner's connection (migrations only). */
  ownerDatabaseUrl: string;
  temporalAddress: string;
  temporalMetricsUrl: string;
  sink: SmtpSink;
  /** `api-1`, `api-2`, `worker-1`, `worker-2`, … */
  supervisors: Map<string, Supervisor>;
  /** Each process's Prometheus endpoint, by the same names. */
  metricsUrls: Map<string, string>;
  /** The identity provider's stand-in (single sign-on). */
  identityProviderUrl: string;
  /** `<name>.log` of each process (api-1, worker-1, …): its JSON log lines, appended across restarts. */
  logsDir: string;
  /** Waits until every API answers readiness (after a restart, say). */
  ready(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

interface Secrets { jwtSecret: string; portalPassword: string; runtimePassword: string; temporalPassword: string }

/** Generated on first start, then read: a restart keeps the sessions and the roles' passwords (a missing one is added). */
function secretsIn(dataDir: string): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  const stored = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets> : {};
  const hex = () => randomBytes(24).toString('hex');
  const secrets = {
    jwtSecret: randomBytes(48).toString('base64'), portalPassword: hex(), runtimePassword: hex(), temporalPassword: hex(), ...stored,
  };
  if (Object.keys(stored).length === Object.keys(secrets).length) return secrets;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** The first administrator on the admin list and in the directory (both left as they are when already there). */
async function putFirstAdmin(orm: Orm, who: { email: string; firstName: string; lastName: string }): Promise<void> {
  const em = orm.em.fork();
  const email = who.email.trim().toLowerCase();
  if (!(await em.findOne(AdminSchema, { email }))) em.create(AdminSchema, { email, firstName: who.firstName, lastName: who.lastName });
  if (!(await em.findOne(PersonSchema, { email }))) {
    em.create(PersonSchema, {
      employeeId: `ADMIN${String(Date.now()).slice(-6)}`, email, firstName: who.firstName, lastName: who.lastName,
      title: 'Risk Management', employmentStatus: 'A', personType: 'Employee',
    });
  }
  await em.flush();
}

/** Runs `node <dist>/<entry>.js` to its end; rejects with its output when it fails. */
function runToEnd(distDir: string, entry: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(distDir, `${entry}.js`)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => { output += chunk; });
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk; });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${entry} exited with ${code}:\n${output.slice(-3000)}`))));
  });
}

async function waitReady(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${url}/api/v1/health/ready`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch { /* not yet */ }
    if (Date.now() > deadline) throw new Error(`${url} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The reverse proxy: every request to one of the APIs, balanced; streams (uploads, live events) pass through. */
async function startProxy(apiUrls: string[], port: number): Promise<FastifyInstance> {
  const proxy = Fastify({ logger: false, trustProxy: false });
  proxy.removeAllContentTypeParsers();
  proxy.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  // No body timeout: the live-dashboard stream stays open for as long as the page does.
  await proxy.register(replyFrom, { base: apiUrls, undici: { headersTimeout: 60_000, bodyTimeout: 0 } });
  const forward = (request: FastifyRequest, reply: FastifyReply) =>
    reply.from(request.url, {
      // As nginx's `proxy_set_header X-Request-Id $request_id`: an id of the proxy's for every call, never the client's.
      rewriteRequestHeaders: (_req: unknown, headers: Record<string, unknown>) => ({
        ...headers, 'x-forwarded-for': request.ip, 'x-forwarded-proto': 'http', 'x-request-id': randomUUID(),
      }),
    });
  proxy.all('/', forward);
  proxy.all('/*', forward);
  await proxy.listen({ host: '127.0.0.1', port });
  return proxy;
}

export async function startProductionShape(options: ProductionShapeOptions): Promise<ProductionShape> {
  const log = options.log ?? (() => {});
  const names = { ...DEFAULT_NAMES, ...options.names };
  const { dataDir, distDir } = options;
  const started = Date.now();
  const secrets = secretsIn(dataDir);
  const admin = new URL(options.adminDatabaseUrl);

  // 1. PostgreSQL: the portal's owner, database and runtime role, apart from Temporal's (created by startTemporalServer).
  await ensureRoleAndDatabases(options.adminDatabaseUrl, names.portalRole, secrets.portalPassword, [names.portalDatabase]);
  await ensureLoginRole(options.adminDatabaseUrl, names.portalRuntimeRole, secrets.runtimePassword);
  const at = `${admin.hostname}:${admin.port || 5432}/${names.portalDatabase}`;
  const ownerDatabaseUrl = `postgres://${names.portalRole}:${secrets.portalPassword}@${at}`;
  const databaseUrl = `postgres://${names.portalRuntimeRole}:${secrets.runtimePassword}@${at}`;

  // 2. The real Temporal server on its own role and databases.
  const temporal = await startTemporalServer({
    adminDatabaseUrl: options.adminDatabaseUrl, address: `127.0.0.1:${await freePortInRange()}`, dataDir: path.join(dataDir, 'temporal'),
    user: names.temporalRole, password: secrets.temporalPassword, database: names.temporalDatabase, visibilityDatabase: names.visibilityDatabase,
    log,
  });

  // 3. The SMTP relay's stand-in.
  const sink = await startSmtpSink({ dir: path.join(dataDir, 'mail'), loadExisting: true });

  const proxyPort = options.port || await freePort();
  const url = `http://127.0.0.1:${proxyPort}`;
  const apiPorts = await Promise.all(Array.from({ length: options.apis ?? 2 }, () => freePort()));
  const apiUrls = apiPorts.map((port) => `http://127.0.0.1:${port}`);
  const base = { ...process.env };
  delete base.NODE_OPTIONS; // plain Node, as in the image: no tsx loader
  const officeSigning = loadOrCreateDevelopmentP12(path.join(dataDir, 'office-signing'));
  const env: NodeJS.ProcessEnv = {
    ...base,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    RISK_MANAGEMENT_PHONE: '503-494-1234',
    RISK_MANAGEMENT_EMAIL: 'riskmanagement@university.example',
    DATA_DIR: path.join(dataDir, 'files'),
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: 'coi-requests',
    SMTP_URL: sink.url,
    JWT_SECRET: secrets.jwtSecret,
    WORKFLOW_BUNDLE_PATH: path.join(distDir, 'workflow-bundle.js'),
    CHROMIUM_PATH: options.chromiumPath ?? process.env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH,
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'info',
    // Its tests and benches drive one requester's many requests at once, each with its signed release: uploads in
    // progress per user (2 in production) would refuse the third at once.
    UPLOADS_AT_ONCE: '1000',
    ...API_PROCESS_ENV, // as the image sets it for every process
    ...options.env,
  };

  // 4. Migrations and reference data, once, as the database's owner, which then grants the runtime role its rows.
  await runToEnd(distDir, 'migrate', { ...env, MIGRATION_DATABASE_URL: ownerDatabaseUrl });
  log(`database ${names.portalDatabase} migrated as ${names.portalRole} (no superuser); the portal runs as ${names.portalRuntimeRole}`);

  // 5. The university's identity provider's stand-in (SAML; it signs in whom the directory lists), run by this
  //    launcher, which is no production process. It answers over http on the loopback, and production refuses
  //    metadata read over http: the portal's processes see it pinned, as an office without https metadata configures
  //    its IdP (entry point, signing certificate and entity id).
  const orm = await createOrm(databaseUrl, { poolMax: 2 });
  if (options.firstAdmin) await putFirstAdmin(orm, options.firstAdmin);
  const idp = await startDevIdp({
    orm, dataDir, env: { NODE_ENV: 'development' },
    serviceProvider: () => serviceProviderUrls({ publicUrl: url, saml: { spEntityId: null } as never }),
  });
  env.SAML_IDP_ENTRY_POINT = `${idp.url}/sso`;
  env.SAML_IDP_CERT = idp.certificate;
  env.SAML_IDP_ENTITY_ID = idp.entityId;

  // 6. Workers and APIs, each supervised: a crash restarts it.
  const supervisors = new Map<string, Supervisor>();
  const logsDir = path.join(dataDir, 'logs');
  fs.mkdirSync(logsDir, { recursive: true });
  const logFiles: fs.WriteStream[] = [];
  const supervise = (name: string, entry: string, extra: Record<string, string> = {}, nodeFlags: readonly string[] = []) => {
    const logFile = fs.createWriteStream(path.join(logsDir, `${name}.log`), { flags: 'a' });
    logFiles.push(logFile);
    const supervisor = new Supervisor({
      name, command: process.execPath, args: [...nodeFlags, '--enable-source-maps', path.join(distDir, `${entry}.js`)],
      spawnOptions: { env: { ...env, ...extra } }, log: (line) => log(line),
    });
    // Read every line (a full pipe would block the child); show warnings and errors, which production logs are.
    supervisor.on('spawn', (child: ChildProcess) => {
      for (const stream of [child.stdout, child.stderr]) {
        stream?.setEncoding('utf8').on('data', (chunk: string) => {
          logFile.write(chunk);
          for (const line of chunk.split('\n')) if (/"level":(40|50|60)|Error|error/.test(line)) log(`[${name}] ${line.slice(0, 400)}`);
        });
      }
    });
    supervisors.set(name, supervisor.start());
  };
  // Each process its own /metrics port (in compose they share one number, each in its own container).
  const metricsUrls = new Map<string, string>();
  const withMetrics = async (name: string) => {
    const port = await freePort();
    metricsUrls.set(name, `http://127.0.0.1:${port}/metrics`);
    return { METRICS_PORT: String(port) };
  };
  // The office's signing certificate, as an operator installs it (a self-signed stand-in kept in the data folder): the
  // workers' alone, as docker-compose.yml gives it; the APIs face the internet and never hold it.
  const signing = { LETTER_SIGNING_P12: officeSigning.p12.toString('base64'), LETTER_SIGNING_P12_PASSWORD: officeSigning.password };
  for (let i = 1; i <= (options.workers ?? 2); i += 1) supervise(`worker-${i}`, 'worker', { ...signing, ...await withMetrics(`worker-${i}`) });
  // The APIs with the image's memory settings (config/api-process.ts), as the container runs them.
  for (const [i, port] of apiPorts.entries()) {
    supervise(`api-${i + 1}`, 'server', { PORT: String(port), ...await withMetrics(`api-${i + 1}`) }, API_NODE_FLAGS);
  }
  const ready = async (timeoutMs = 90_000) => {
    const deadline = Date.now() + timeoutMs;
    await Promise.all(apiUrls.map((api) => waitReady(api, deadline)));
  };

  let proxy: FastifyInstance | null = null;
  const stop = async () => {
    await proxy?.close().catch(() => {});
    for (const [name, supervisor] of [...supervisors].filter(([n]) => n.startsWith('api'))) await supervisor.stop().catch(() => log(`${name} did not stop`));
    for (const [, supervisor] of [...supervisors].filter(([n]) => n.startsWith('worker'))) await supervisor.stop().catch(() => {});
    await sink.close().catch(() => {});
    await idp.close().catch(() => {});
    await orm.close().catch(() => {});
    await temporal.stop().catch(() => {});
    for (const logFile of logFiles) logFile.end();
  };
  try {
    await ready();
    // 7. The proxy in front.
    proxy = await startProxy(apiUrls, proxyPort);
  } catch (error) {
    await stop();
    throw error;
  }
  log(`production shape up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${url} → ${apiUrls.join(', ')}`);
  return { url, apiUrls, databaseUrl, ownerDatabaseUrl, temporalAddress: temporal.address, temporalMetricsUrl: temporal.metricsUrl, sink, supervisors, metricsUrls, identityProviderUrl: idp.url, logsDir, ready, stop };
}
