/**
 * A role of its own for each part that keeps data in PostgreSQL (the portal; Temporal): it logs in with its password,
 * owns its databases and nothing else, and is no superuser and may create neither databases nor roles. Created with
 * an administrator's connection, once; a later call changes nothing (the password of an existing role included).
 */
import pg from 'pg';

export async function ensureRoleAndDatabases(adminUrl: string, user: string, password: string, databases: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const role = client.escapeIdentifier(user);
    const exists = await client.query('select 1 from pg_roles where rolname = $1', [user]);
    if (!exists.rowCount) {
      await client.query(`create role ${role} login password ${client.escapeLiteral(password)} nosuperuser nocreatedb nocreaterole`);
    }
    for (const name of databases) {
      const found = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (!found.rowCount) await client.query(`create database ${client.escapeIdentifier(name)} owner ${role}`);
    }
  } finally {
    await client.end();
  }
}
