/** Creates the database if needed, runs pending migrations and seeds. Used by `npm start` and the tests. */
import { ensureDatabase } from './database';
import { createOrm } from './orm';
import { seed } from './seed';

export async function prepareDatabase(databaseUrl: string, log: (line: string) => void = () => {}) {
  const created = await ensureDatabase(databaseUrl);
  log(created === 'created' ? `created database ${new URL(databaseUrl).pathname.slice(1)}` : 'database exists');
  const orm = await createOrm(databaseUrl, { poolMax: 2 });
  try {
    const applied = await orm.migrator.up();
    log(`migrations applied: ${applied.length}`);
    await seed(orm.em.fork() as any);
  } finally {
    await orm.close();
  }
}
