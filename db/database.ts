/** Makes sure the database named in DATABASE_URL exists, and says how to start PostgreSQL when none answers. */
import pg from 'pg';

export async function ensureDatabase(databaseUrl: string): Promise<'created' | 'exists'> {
  const url = new URL(databaseUrl);
  const dbName = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(dbName)) throw new Error(`Unsupported database name "${dbName}"`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL does not answer at ${url.host} (${(error as Error).message}).\n` +
      `Start it, e.g. on Debian: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n` +
      `or point DATABASE_URL at a running server.`,
    );
  }
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [dbName]);
    if (found.rowCount) return 'exists';
    await client.query(`create database "${dbName}"`);
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
    await client.query(`drop database if exists "${dbName}" with (force)`);
  } finally {
    await client.end();
  }
}
