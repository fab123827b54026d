/**
 * A database of a test file's own, for tests that change reference data at random (the fuzz test may rename a
 * template or move a policy year) or take the database away: the run's shared database stays as other files expect.
 * The run's Temporal server is still shared, so its requests are numbered far from the shared database's (a workflow
 * id is `request-<number>`: two databases' request 50001 would otherwise meet in one workflow).
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { dropDatabase } from '../../db/database';
import { prepareDatabase } from '../../db/prepare-database';
import { createOrm } from '../../db/orm';

export async function ownDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/coi_${name}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = url.toString();
  await prepareDatabase(databaseUrl, () => {}, { devAccounts: true });
  const orm = await createOrm(databaseUrl, { poolMax: 1 });
  try {
    await orm.em.fork().getConnection().execute(`update counters set last_request_number = ? where name = 'request'`,
      [10_000_000 + Math.floor(Math.random() * 80_000_000)], 'run');
  } finally {
    await orm.close();
  }
  return { url: databaseUrl, drop: () => dropDatabase(databaseUrl).catch(() => {}) };
}
