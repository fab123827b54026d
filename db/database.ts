/** Makes sure the database named in DATABASE_URL exists, and says how to start PostgreSQL when none answers. */
import { sql } from 'kysely';
import pg from 'pg';
import { databaseConnectTimeoutMs } from '../config/app-config';
import { queryOn } from './kysely';

export async function ensureDatabase(databaseUrl: string): Promise<'created' | 'exists'> {
  const url = new URL(databaseUrl);
  const dbName = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(dbName)) throw new Error(`Unsupported database name "${dbName}"`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: databaseConnectTimeoutMs() });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL does not answer at ${url.host} (${(error as Error).message}).\n` +
      `Start it, e.g. on Debian: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n` +
      `or point DATABASE_URL at a running server, or unset DATABASE_URL for the embedded PostgreSQL.`,
      { cause: error },
    );
  }
  try {
    const found = await queryOn(client, sql`select 1 from pg_database where datname = ${dbName}`);
    if (found.rowCount) return 'exists';
    await queryOn(client, sql`create database ${sql.id(dbName)}`);
    return 'created';
  } finally {
    await client.end();
  }
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const dbName = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await queryOn(client, sql`drop database if exists ${sql.id(dbName)} with (force)`);
  } finally {
    await client.end();
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Drops scratch databases named `<prefix><pid>…` whose process is gone (a test or bench run killed before its
 * cleanup). Returns the names dropped. Silent when the server does not answer: prepareDatabase explains that.
 */
export async function dropOrphanedDatabases(databaseUrl: string, prefix: string): Promise<string[]> {
  if (!/^[a-z_]+$/.test(prefix)) throw new Error(`Unsupported prefix "${prefix}"`);
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  url.search = '';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: databaseConnectTimeoutMs() });
  try {
    await client.connect();
  } catch {
    return [];
  }
  const dropped: string[] = [];
  try {
    const { rows } = await queryOn(client, sql<{ datname: string }>`select datname from pg_database where datname like ${`${prefix}%`}`);
    for (const { datname } of rows) {
      const pid = Number(new RegExp(`^${prefix}(\\d+)`).exec(datname)?.[1]);
      if (pid && pid !== process.pid && !processIsAlive(pid)) {
        await queryOn(client, sql`drop database if exists ${sql.id(datname)} with (force)`).then(() => dropped.push(datname), () => {});
      }
    }
  } finally {
    await client.end();
  }
  return dropped;
}
