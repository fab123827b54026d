/** Creates the ORM once per process. Callers fork an entity manager per HTTP request or activity call. */
import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { fileURLToPath } from 'node:url';
import { ALL_ENTITIES } from './entities';
import { databaseConnectTimeoutMs } from '../config/app-config';

const MIGRATIONS_PATH = fileURLToPath(new URL('./migrations', import.meta.url));

export async function createOrm(databaseUrl: string, options: { debug?: boolean; poolMax?: number } = {}) {
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities: ALL_ENTITIES,
    extensions: [Migrator],
    debug: options.debug ?? false,
    // Bounded waits, so an unreachable or stuck database is an error in seconds, not a hung request: a new connection
    // gives up after DATABASE_CONNECT_TIMEOUT_MS (5 s by default); a statement after 60 s (the largest, a 100,000-row CS-STARS merge, takes a few seconds); a
    // transaction left idle (a process paused mid-way) is ended after 60 s so its locks do not hold everyone up.
    pool: { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 },
    driverOptions: { connectionTimeoutMillis: databaseConnectTimeoutMs(), statement_timeout: 60_000, idle_in_transaction_session_timeout: 60_000 },
    migrations: { path: MIGRATIONS_PATH, pathTs: MIGRATIONS_PATH, glob: '!(*.d).{js,ts}', transactional: true, snapshot: false },
    allowGlobalContext: false,
  });
}
export type Orm = Awaited<ReturnType<typeof createOrm>>;
