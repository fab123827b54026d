/** Creates the ORM once per process. Callers fork an entity manager per HTTP request or activity call. */
import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { fileURLToPath } from 'node:url';
import { ALL_ENTITIES } from './entities';

export const MIGRATIONS_PATH = fileURLToPath(new URL('./migrations', import.meta.url));

export async function createOrm(databaseUrl: string, options: { debug?: boolean; poolMax?: number } = {}) {
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities: ALL_ENTITIES,
    extensions: [Migrator],
    debug: options.debug ?? false,
    pool: { min: 0, max: options.poolMax ?? 10 },
    migrations: { path: MIGRATIONS_PATH, pathTs: MIGRATIONS_PATH, glob: '!(*.d).{js,ts}', transactional: true, snapshot: false },
    allowGlobalContext: false,
  });
}
export type Orm = Awaited<ReturnType<typeof createOrm>>;
