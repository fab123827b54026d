/**
 * The database roles of the production shape (docs/OPERATIONS.md "Database roles"):
 * - an owner for each part that keeps data in PostgreSQL (the portal; Temporal): it logs in with its password, owns its
 *   databases and nothing else, is no superuser and may create neither databases nor roles. The portal's owner only
 *   runs the migrations (dist/migrate.js);
 * - the portal's runtime role, which the API and the worker connect as: it reads and writes the rows but cannot
 *   change a table (no ownership; PostgreSQL 15 and later give no CREATE on the public schema), and on the security log it may only add lines (INSERT,
 *   SELECT; aggregating refusals and yearly pruning go through the owner's functions of Migration20261127500001).
 * Roles are created with an administrator's connection, once; a later call changes nothing (the password of an
 * existing role included). The runtime role's privileges are (re)granted by the owner after every migration run, so
 * a table a new migration adds is covered.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { queryOn } from './kysely';
import { OWNER_ONLY_FUNCTIONS } from './sql-functions';

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A login role (no superuser, no CREATEDB, no CREATEROLE), created when missing. */
export async function ensureLoginRole(adminUrl: string, user: string, password: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    const exists = await queryOn(client, sql`select 1 from pg_roles where rolname = ${user}`);
    if (!exists.rowCount) {
      await client.query(`create role ${client.escapeIdentifier(user)} login password ${client.escapeLiteral(password)} nosuperuser nocreatedb nocreaterole`);
    }
  });
}

export async function ensureRoleAndDatabases(adminUrl: string, user: string, password: string, databases: string[]): Promise<void> {
  await ensureLoginRole(adminUrl, user, password);
  await withClient(adminUrl, async (client) => {
    for (const name of databases) {
      const found = await queryOn(client, sql`select 1 from pg_database where datname = ${name}`);
      if (!found.rowCount) await client.query(`create database ${client.escapeIdentifier(name)} owner ${client.escapeIdentifier(user)}`);
    }
  });
}

/** Tables only the migrations touch. */
const MIGRATION_TABLES = ['mikro_orm_migrations'];
/** Tables the runtime role may only add lines to (and read). */
const APPEND_ONLY_TABLES = ['security_events'];

/**
 * Grants `role` what the API and the worker need on the portal's database, run as its owner after the migrations:
 * rows of every table (SELECT, INSERT, UPDATE, DELETE), the sequences, the owner's functions; then takes back UPDATE,
 * DELETE and TRUNCATE on the append-only tables and everything on the migrations' own table. Idempotent.
 */
export async function grantRuntimePrivileges(ownerUrl: string, role: string): Promise<void> {
  await withClient(ownerUrl, async (client) => {
    const r = client.escapeIdentifier(role);
    const found = await queryOn(client, sql`select 1 from pg_roles where rolname = ${role}`);
    if (!found.rowCount) throw new Error(`The runtime role ${role} does not exist: create it first (docs/OPERATIONS.md "Database roles").`);
    await client.query('begin');
    await client.query(`grant usage on schema public to ${r}`);
    await client.query(`grant select, insert, update, delete on all tables in schema public to ${r}`);
    await client.query(`grant usage, select, update on all sequences in schema public to ${r}`);
    for (const fn of OWNER_ONLY_FUNCTIONS) await client.query(`grant execute on function ${fn} to ${r}`);
    for (const table of APPEND_ONLY_TABLES) await client.query(`revoke update, delete, truncate on ${client.escapeIdentifier(table)} from ${r}`);
    for (const table of MIGRATION_TABLES) await client.query(`revoke all on ${client.escapeIdentifier(table)} from ${r}`);
    await client.query('commit');
  });
}
