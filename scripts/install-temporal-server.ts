/**
 * Builds (once) and caches the real Temporal server with its SQL tool and schema files (the production shape: Temporal
 * on PostgreSQL), then prints where. `npm test` runs it after the CLI so the slow first build is a visible step of its own:
 *   node_modules/.bin/node --import tsx scripts/install-temporal-server.ts
 */
import { ensureTemporalServerBuild } from '../devtools/temporal/temporal-server';

try {
  const build = await ensureTemporalServerBuild((line) => console.log(line));
  console.log(`Temporal server: ${build.server}`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
