/**
 * PostgreSQL away: calls answer 503 in the spec's shape (a browser or client tries again), never a 500 or a hang
 * (bounded generously: a busy machine only makes the answer later), and the same calls work again once the database
 * is back, without a restart. The database is made unreachable the way an outage looks to the API: no new
 * connections, the open ones cut.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../api/plugins/error-handler';
import { call, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { ownDatabase } from '../support/own-database';
import { startHarness, type Harness } from '../support/portal-harness';
import { createOrm } from '../../db/orm';

let h: Harness;
let database: Awaited<ReturnType<typeof ownDatabase>>;
let requester: Session;
const admin = (() => { const url = new URL(inject('databaseUrl')); url.pathname = '/postgres'; return url.toString(); })();
const name = () => new URL(database.url).pathname.slice(1);

async function asAdministrator(sql: string) {
  const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 30_000 });
  await client.connect();
  try { await client.query(sql); } finally { await client.end(); }
}

beforeAll(async () => {
  database = await ownDatabase('db_away');
  h = await startHarness({ worker: false, databaseUrl: database.url });
  requester = await loginRequester(h);
});
afterAll(async () => {
  await asAdministrator(`alter database "${name()}" allow_connections true`).catch(() => {});
  await h?.stop();
  await database?.drop();
});

describe('the API while PostgreSQL is away', () => {
  it('answers 503 with the spec\'s error shape, not a hang, then serves again once it is back', async () => {
    expect((await call(h, requester, 'GET', '/api/v1/requests')).status).toBe(200);
    await asAdministrator(`alter database "${name()}" allow_connections false`);
    await asAdministrator(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name()}'`);
    const started = Date.now();
    const away = await call(h, requester, 'GET', '/api/v1/requests');
    expect(Date.now() - started, 'an answer, not a hang').toBeLessThan(60_000);
    expect(away.status).toBe(503);
    expect(away.body).toEqual({ name: 'Unavailable', message: DATABASE_UNAVAILABLE_MESSAGE, code: 503, className: 'unavailable', data: {}, errors: {} });
    await asAdministrator(`alter database "${name()}" allow_connections true`);
    await eventually(async () => ((await call(h, requester, 'GET', '/api/v1/requests')).status === 200 ? true : undefined), 30_000);
  });
});

describe('a transaction whose connection is cut', () => {
  // A rollback on a dead connection fails; the pool must still get its place back, or each outage that cuts a
  // transaction keeps one place for good: a pool of ten is empty after ten, and shutting down waits for it forever.
  it('gives its place in the pool back: the next statement runs and the pool closes', async () => {
    const orm = await createOrm(database.url, { poolMax: 1 });
    try {
      const cut = orm.em.fork().transactional(async (tx) => {
        const [{ pid }] = await tx.execute<Array<{ pid: number }>>('select pg_backend_pid() as pid');
        await asAdministrator(`select pg_terminate_backend(${Number(pid)})`);
        await tx.execute('select 1');
      });
      await expect(cut).rejects.toThrow();
      // The pool's one place: taken for good if the failed rollback kept it (the wait then ends in a connect timeout).
      expect(await orm.em.fork().getConnection().execute('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await orm.close();
    }
  });
});
