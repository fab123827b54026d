/**
 * Creates the database if needed, runs pending migrations and seeds. Used by `npm start`, the tests and the production
 * migrate entry (scripts/migrate.ts → dist/migrate.js). The development accounts are seeded when `devAccounts` says so,
 * by default by the environment's rule (config/app-config.ts seedDevAccountsSetting: never with NODE_ENV=production);
 * the sample policy years likewise never with NODE_ENV=production.
 * `databaseUrl` is the owner's connection; with `runtimeRole` (the production shape: the API and the worker connect
 * as another role) that role is then granted what it needs and no more (db/least-privilege-role.ts).
 */
import { seedDevAccountsSetting } from '../config/app-config';
import { ensureDatabase } from './database';
import { grantRuntimePrivileges } from './least-privilege-role';
import { createOrm } from './orm';
import { seed } from './seed';

export async function prepareDatabase(
  databaseUrl: string,
  log: (line: string) => void = () => {},
  options: { devAccounts?: boolean; samplePolicyYears?: boolean; runtimeRole?: string | null } = {},
) {
  const devAccounts = options.devAccounts ?? seedDevAccountsSetting(process.env);
  const samplePolicyYears = options.samplePolicyYears ?? process.env.NODE_ENV !== 'production';
  const created = await ensureDatabase(databaseUrl);
  log(created === 'created' ? `created database ${new URL(databaseUrl).pathname.slice(1)}` : 'database exists');
  const orm = await createOrm(databaseUrl, { poolMax: 2 });
  try {
    const applied = await orm.migrator.up();
    log(`migrations applied: ${applied.length}`);
    await seed(orm.em.fork() as any, { devAccounts, samplePolicyYears, log });
    log(devAccounts ? 'seeded (development accounts included)' : 'seeded (reference data only, no development accounts)');
  } finally {
    await orm.close();
  }
  if (options.runtimeRole) {
    await grantRuntimePrivileges(databaseUrl, options.runtimeRole);
    log(`runtime role ${options.runtimeRole}: rows only, security log append-only`);
  }
}
