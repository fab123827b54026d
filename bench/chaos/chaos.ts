/**
 * `npm run chaos -- [--requests 120] [--concurrency 6] [--gap 3000-8000] [--kills 60] [--window-kills 8] [--no-postgres]`:
 * the chaos run of bench/chaos/run-chaos.ts, by hand, with its report; PostgreSQL (an embedded server of the run's
 * own) is crashed too unless --no-postgres. Exit code 1 when any check fails.
 */
import { runBench } from '../lifecycle';
import { runChaos } from './run-chaos';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const [minGapMs, maxGapMs] = arg('gap', '3000-8000').split('-').map(Number);
// runChaos stops its cluster however it ends; runBench kills whatever is left on Ctrl-C (the suite runs it small:
// tests/workflows/chaos.test.ts).
runBench('chaos', async () => {
  const report = await runChaos({
    requests: Number(arg('requests', '120')),
    concurrency: Number(arg('concurrency', '6')),
    minGapMs, maxGapMs,
    maxKills: Number(arg('kills', '60')),
    emailWindowKillChance: 0.05,
    maxEmailWindowKills: Number(arg('window-kills', '8')),
    settleTimeoutMs: 300_000,
    crashPostgres: !process.argv.includes('--no-postgres'),
  });
  console.log(JSON.stringify(report, null, 2));
  return report.violations.length ? 1 : 0;
});
