/**
 * Production entry `node dist/migrate.js` (built by scripts/build.ts; docker-compose's one-shot `migrate` service):
 * creates the database if needed, applies the pending migrations (compiled to dist/migrations/) and seeds the
 * reference data. The development accounts and the sample policy years are never seeded with NODE_ENV=production
 * (config/app-config.ts, db/seed.ts).
 * It connects as the database's owner (MIGRATION_DATABASE_URL) and grants the API's and worker's runtime role
 * (DATABASE_URL's user) its privileges, when they differ (config/app-config.ts migrationDatabaseSetting).
 * Development runs the same preparation from `npm start` and the tests.
 */
import { loadConfig, migrationDatabaseSetting } from '../config/app-config';
import { prepareDatabase } from '../db/prepare-database';

const config = loadConfig();
const started = Date.now();
const { ownerUrl, runtimeRole } = migrationDatabaseSetting();
await prepareDatabase(ownerUrl, (line) => console.log(`[migrate] ${line}`), { devAccounts: config.seedDevAccounts, samplePolicyYears: !config.production, runtimeRole });
console.log(`[migrate] database ${new URL(config.databaseUrl).pathname.slice(1)} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
