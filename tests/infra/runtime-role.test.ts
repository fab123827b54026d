/**
 * The production shape's database roles (db/least-privilege-role.ts): migrations run as the database's owner, the API
 * and the worker as a runtime role that reads and writes rows but cannot change a table, and may only add lines to
 * the security log. What a compromised API could try is tried here, as that role, on a database migrated the way
 * dist/migrate.js does it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrationDatabaseSetting } from '../../config/app-config';
import { ensureLoginRole, ensureRoleAndDatabases } from '../../db/least-privilege-role';
import { createOrm, type Orm } from '../../db/orm';
import { prepareDatabase } from '../../db/prepare-database';
import { pruneSecurityLog, recordAccessRefused, recordSecurityEvent } from '../../services/desk/security-log';

const suffix = `${process.pid}_${randomBytes(2).toString('hex')}`;
const OWNER = `coi_owner_${suffix}`;
const RUNTIME = `coi_app_${suffix}`;
const DATABASE = `coi_test_${process.pid}_roles`;
const adminUrl = (() => { const url = new URL(inject('databaseUrl')); url.pathname = '/postgres'; return url.toString(); })();
const urlOf = (role: string, password: string) => {
  const url = new URL(inject('databaseUrl'));
  url.username = role;
  url.password = password;
  url.pathname = `/${DATABASE}`;
  return url.toString();
};
const ownerUrl = urlOf(OWNER, randomBytes(12).toString('hex'));
const runtimeUrl = urlOf(RUNTIME, randomBytes(12).toString('hex'));

let runtime: pg.Client;
let owner: pg.Client;
let orm: Orm;

beforeAll(async () => {
  await ensureRoleAndDatabases(adminUrl, OWNER, new URL(ownerUrl).password, [DATABASE]);
  await ensureLoginRole(adminUrl, RUNTIME, new URL(runtimeUrl).password);
  // As dist/migrate.js in compose: DATABASE_URL is the runtime role's, MIGRATION_DATABASE_URL the owner's.
  const setting = migrationDatabaseSetting({ DATABASE_URL: runtimeUrl, MIGRATION_DATABASE_URL: ownerUrl });
  expect(setting).toEqual({ ownerUrl, runtimeRole: RUNTIME });
  await prepareDatabase(setting.ownerUrl, () => {}, { devAccounts: false, runtimeRole: setting.runtimeRole });
  runtime = new pg.Client({ connectionString: runtimeUrl });
  owner = new pg.Client({ connectionString: ownerUrl });
  await Promise.all([runtime.connect(), owner.connect()]);
  orm = await createOrm(runtimeUrl, { poolMax: 2 });
}, 120_000);

afterAll(async () => {
  await Promise.all([runtime?.end(), owner?.end(), orm?.close()].map((p) => p?.catch(() => undefined)));
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${DATABASE}" with (force)`).catch(() => undefined);
  for (const role of [RUNTIME, OWNER]) await admin.query(`drop role if exists "${role}"`).catch(() => undefined);
  await admin.end();
});

const refused = (sql: string) => expect(runtime.query(sql)).rejects.toMatchObject({ message: expect.stringMatching(/permission denied|must be (the )?owner/) });

describe('the runtime role', () => {
  it('is one setting away: the migrate step names the owner, the API and the worker keep DATABASE_URL', () => {
    expect(migrationDatabaseSetting({ DATABASE_URL: runtimeUrl })).toEqual({ ownerUrl: runtimeUrl, runtimeRole: null });
    expect(migrationDatabaseSetting({ DATABASE_URL: ownerUrl, MIGRATION_DATABASE_URL: ownerUrl }).runtimeRole).toBeNull();
  });

  it('cannot change a table, add one or drop one', async () => {
    await refused('alter table "security_events" drop column "detail"');
    await refused('alter table "users" add column "backdoor" text');
    await refused('drop table "security_events"');
    await refused('create table "mine" ("x" int)');
    await refused('create index "mine" on "users" ("email")');
  });

  it('cannot update, delete or truncate the security log, only add lines and read them', async () => {
    await recordSecurityEvent(orm.em.fork() as EntityManager, { kind: 'signInFailed', email: 'someone@hospital.example', ip: '198.51.100.7' });
    await refused(`update "security_events" set "kind" = 'signInSucceeded'`);
    await refused('delete from "security_events"');
    await refused('truncate "security_events"');
    const { rows } = await runtime.query(`select "kind" from "security_events" where "ip" = '198.51.100.7'`);
    expect(rows).toEqual([{ kind: 'signInFailed' }]);
  });

  it('cannot touch the migrations\' own table', async () => {
    await refused('select * from "mikro_orm_migrations"');
    await refused('delete from "mikro_orm_migrations"');
  });

  it('reads and writes the rows the portal works with', async () => {
    await runtime.query(`insert into "faqs" ("created_at", "updated_at", "type", "question", "answer", "order") values (now(), now(), 'Requester', 'Q?', 'A.', 99)`);
    await runtime.query(`update "faqs" set "answer" = 'B.' where "order" = 99`);
    await runtime.query(`delete from "faqs" where "order" = 99`);
  });

  it('aggregates refusals through the owner\'s function: a repeat counts on the line, it adds none', async () => {
    for (let i = 0; i < 3; i += 1) {
      await recordAccessRefused(orm.em.fork() as EntityManager, { userId: null, email: null, ip: '203.0.113.9', method: 'GET', route: '/api/v1/admins', status: 401 });
    }
    const { rows } = await runtime.query(`select "detail"->>'repeats' as "repeats" from "security_events" where "kind" = 'accessRefused' and "ip" = '203.0.113.9'`);
    expect(rows.length).toBeLessThanOrEqual(2); // two only when the minute turned between the calls
    expect(rows.reduce((sum, row) => sum + Number(row.repeats), 0)).toBe(3);
  });

  it('prunes the log through the owner\'s function, which never removes a line younger than a year', async () => {
    const at = (days: number) => new Date(Date.now() - days * 86_400_000);
    for (const [ip, days] of [['192.0.2.1', 400], ['192.0.2.2', 300]] as const) {
      await owner.query(`insert into "security_events" ("at", "kind", "ip") values ($1, 'signInFailed', $2)`, [at(days), ip]);
    }
    // Housekeeping's own call (a year's retention) removes the old line.
    expect(await pruneSecurityLog(orm.em.fork() as EntityManager)).toBe(1);
    // Asked for everything, the function still keeps the younger line.
    await runtime.query('select prune_security_events(now() + interval \'1 day\')');
    const { rows } = await runtime.query(`select "ip" from "security_events" where "ip" like '192.0.2.%'`);
    expect(rows).toEqual([{ ip: '192.0.2.2' }]);
  });
});
