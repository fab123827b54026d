/**
 * The short chaos run: a few submit/approve flows while worker, API and Temporal are
 * killed with SIGKILL, plus kills aimed at the duplicate-email window. The long run is `npm run chaos`.
 */
import { expect, inject, it } from 'vitest';
import { runChaos } from '../../bench/chaos/run-chaos';

it('loses no request, duplicates no audit row, misses no email, and answers repeated clicks like the first', async () => {
  const report = await runChaos({
    requests: 12, concurrency: 4, minGapMs: 2000, maxGapMs: 4000, maxKills: 6,
    emailWindowKillChance: 0.5, maxEmailWindowKills: 2, settleTimeoutMs: 150_000,
    // The run's production build: each restart is a plain `node dist/…js`, as in production (tsx cost seconds a start).
    distDir: inject('productionBuild').outDir,
    log: (line) => console.log(`[chaos] ${line}`),
  });
  console.log(`[chaos] ${JSON.stringify(report)}`);
  expect(report.violations).toEqual([]);
  // Every SIGKILL counts, the ones aimed at the duplicate-email window too (they kill the worker): the flows are
  // fast enough that eight requests could finish after two random kills, so the run has twelve.
  const { worker, api, temporal, emailWindow } = report.kills;
  expect(worker + api + temporal + emailWindow).toBeGreaterThanOrEqual(4);
  expect(api + temporal).toBeGreaterThanOrEqual(1);
  expect(report.emailsPerRequest).toBeGreaterThanOrEqual(2);
}, 400_000);
