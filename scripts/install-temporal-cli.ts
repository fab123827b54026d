/**
 * Builds (once) and caches the Temporal CLI / dev server binary, then prints its path.
 * Used by .ci/run so the slow first build is a separate, visible step:
 *   node_modules/.bin/node --import tsx scripts/install-temporal-cli.ts
 */
import { ensureTemporalCli } from '../devtools/temporal/temporal-cli';

try {
  const cli = await ensureTemporalCli((line) => console.log(line));
  console.log(`Temporal CLI: ${cli}`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
