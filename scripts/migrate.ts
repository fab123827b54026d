/**
 * Production entry `node dist/migrate.js` (built by scripts/build.ts; docker-compose's one-shot `migrate` service):
 * creates the database if needed, applies the pending migrations (compiled to dist/migrations/) and seeds the
 * reference data. The development accounts and the sample policy years are never seeded with NODE_ENV=production
 * (config/app-config.ts, db/seed.ts).
 * Development runs the same preparation from `npm start` and the tests.
 */
import { loadConfig } from '../config/app-config';
import { prepareDatabase } from '../db/prepare-database';

const config = loadConfig();
const started = Date.now();
await prepareDatabase(config.databaseUrl, (line) => console.log(`[migrate] ${line}`), { devAccounts: config.seedDevAccounts, samplePolicyYears: !config.production });
console.log(`[migrate] database ${new URL(config.databaseUrl).pathname.slice(1)} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
