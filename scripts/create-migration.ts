/** `npm run migration:create`: diff the entities against a scratch database and write a migration to review. */
import { createOrm } from '../db/orm';
import { ensureDatabase, dropDatabase } from '../db/database';

const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/coi_portal';
const scratch = base.replace(/\/[^/]+$/, `/coi_migration_${process.pid}`);
await ensureDatabase(scratch);
const orm = await createOrm(scratch);
try {
  await orm.migrator.up();
  const result = await orm.migrator.create(undefined, false, false, process.argv[2]);
  console.log(result.fileName ? `wrote ${result.fileName}` : 'no changes');
} finally {
  await orm.close();
  await dropDatabase(scratch);
}
