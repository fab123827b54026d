/**
 * The roster bench run small, so that it does not rot unseen (bench/README.md "Smoke runs"): run as a developer runs it
 * (`npm run bench:roster`), with its own Temporal dev server and throw-away database, it must print its figures, exit
 * 0 and leave nothing running (targets printed, not judged: `--smoke`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { benchEnvironment, leftRunningAfter, removeResults, runBenchToEnd } from '../support/bench-runs';

const env = benchEnvironment();
afterAll(() => removeResults(env));

describe('the roster bench, small', () => {
  it('bench:roster: a roster uploaded, every row a draft, all submitted, each with its confirmation email', async () => {
    const run = await runBenchToEnd('bench:roster', ['--rows', '4'], env);
    expect(run.code, run.output.slice(-4000)).toBe(0);
    expect(await leftRunningAfter(run.mark)).toEqual([]);
    expect(run.output).toMatch(/read\+check +\d+ ms/);
    expect(run.output).toMatch(/submit +[\d.]+ s +\(4 submitted, 0 refused\)/);
    expect(run.output).toMatch(/confirmed +[\d.]+ s +\(4 confirmation emails/);
    expect(run.output).toMatch(/OK: every row submitted with its confirmation email/);
  }, 180_000);
});
