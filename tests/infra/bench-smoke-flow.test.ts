/**
 * The benches that run requests through the portal run small, so that none rots unseen (bench/README.md "Smoke
 * runs"): each is run as a developer runs it (`npm run …`), at a size of seconds, and must print its figures and exit
 * 0 (the targets are printed, not judged: `--smoke`), leaving nothing running. The request flow, the letters, the
 * timers, the replies by email and the renewals each start their own Temporal dev server and throw-away database, as
 * they do by hand (their request numbers start where a new database's do: on the run's shared server their workflows
 * would meet the test files'); the production shape runs its one API and one worker from the run's build on the real Temporal
 * server; the identity bench runs against a portal this file starts, whose mail lands in a
 * folder as `npm start`'s does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../devtools/smtp-sink';
import { benchEnvironment, leftRunningAfter, removeResults, runBenchToEnd } from '../support/bench-runs';
import { startHarness, type Harness } from '../support/portal-harness';

const env = benchEnvironment();
afterAll(() => removeResults(env));

/** Runs the bench to its end; it must exit 0 and leave nothing running. Answers what it printed. */
async function smoke(script: string, args: string[], runEnv = env): Promise<string> {
  const run = await runBenchToEnd(script, args, runEnv);
  expect(run.code, run.output.slice(-4000)).toBe(0);
  expect(await leftRunningAfter(run.mark)).toEqual([]);
  return run.output;
}

describe('the benches of the request flow, small', () => {
  it('bench: requests submitted and approved over HTTP, each with its confirmation and its approval email with the letter; certificates a rule issues', async () => {
    const output = await smoke('bench', ['--requests', '2', '--concurrency', '2', '--warmup', '0', '--floor', '0', '--instant', '2']);
    expect(output).toMatch(/submit call \(PATCH Submitted\) +2 +[\d.]+ +[\d.]+/);
    expect(output).toMatch(/approve call \(PATCH Approved\) +2 +[\d.]+ +[\d.]+/);
    // The instant scenario: two Event certificates issued by a rule at submit, each email once (checked with the others).
    expect(output).toMatch(/Instant scenario: 2 Event certificates issued by a rule, concurrency 1/);
    expect(output).toMatch(/submit → certificate email with PDF received +n +2 +p50 +[\d.]+ +p95 +[\d.]+/);
    expect(output).toMatch(/rule decision \(decideInstant, scheduled → done\) +n +2 +p50/);
    expect(output).toMatch(/emails: 2 confirmations, 2 approval emails with 2 PDF letters \(expected 2 each\); 8 received in all/);
    expect(output).toMatch(/OK: every request got exactly one confirmation and one approval email with its PDF letter/);
  });

  it('bench:letters: cold, warm and signed letters, and a burst of approvals', async () => {
    const output = await smoke('bench:letters', ['--renders', '2', '--letters', '2', '--concurrency', '2', '--warmup', '0']);
    expect(output).toMatch(/warm render \(renderer only\) +n=2 +p50 \d+(\.\d+)? ms/);
    expect(output).toMatch(/burst: 2 approvals \(concurrency 2\) with letter and email in [\d.]+ s/);
  });

  it('bench:timers: escalations falling due among open workflows, each email and audit row once', async () => {
    const output = await smoke('bench:timers', ['--holders', '5', '--step', '5', '--firing', '2', '--concurrency', '4']);
    expect(output).toMatch(/5 holders \+ 2 firing .*due → email p50 \d+ ms.* 2 emails, 2 audit rows \(exactly one each\)/);
  });

  it('bench:inbound: replies by email, one after another and in a burst, each posted once', async () => {
    const output = await smoke('bench:inbound', ['--replies', '2', '--burst', '4', '--requests', '2', '--rate', '20']);
    expect(output).toMatch(/latency \(250 → in the discussion\), 2 replies: p50 \d+ ms/);
    expect(output).toMatch(/none lost, none twice: yes/);
  });

  it('bench:renewals: a renewal run over the API, each certificate renewed once with its signed letter emailed, the dashboard timed beside it', async () => {
    const output = await smoke('bench:renewals', ['--n', '20', '--warmup', '2', '--samples', '10', '--background', '200']);
    expect(output).toMatch(/run: 20 renewed \(signed letter \+ email\) in [\d.]+ s = [\d.]+ letters\/s/);
    expect(output).toMatch(/dashboard first page .*idle n=10 p50 [\d.]+ ms p95 [\d.]+ ms; during the run n=\d+ p50 [\d.]+ ms p95 [\d.]+ ms/);
    expect(output).toMatch(/memory \(peak RSS\): API process \d+ MiB, worker process \d+ MiB, its Chromium \d+ MiB/);
    expect(output).toMatch(/emails: 40 renewal emails during the run, 44 in all \(expected 44: requester and holder of each\)/);
    expect(output).toMatch(/OK: every certificate renewed once, its letter signed and emailed to the requester and the holder/);
  }, 240_000);

  it('bench:shape: the production shape with one API and one worker, from the run\'s build', async () => {
    const output = await smoke('bench:shape', ['--requests', '2', '--concurrency', '2', '--warmup', '1', '--replicas', '1', '--dist', inject('productionBuild').outDir]);
    expect(output).toMatch(/1 API \+ 1 worker: submit p50 \d+ ms, p95 \d+ ms.* approve → email with letter p50 \d+ ms/);
  });
});

describe('bench:identity, against a running portal', () => {
  let mailDir: string;
  let sink: SmtpSink;
  let h: Harness;
  beforeAll(async () => {
    mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coi-identity-bench-'));
    sink = await startSmtpSink({ dir: mailDir });
    h = await startHarness({ listen: true, env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await h?.stop();
    await sink?.close();
    fs.rmSync(mailDir, { recursive: true, force: true });
  });

  it('registers, finds the confirmation email in the outbox folder, and times the sign-ins', async () => {
    const output = await smoke('bench:identity', ['--signins', '2'], { ...env, BASE_URL: h.baseUrl!, MAIL_DIR: mailDir });
    expect(output).toMatch(/confirmation email in the outbox: \d+ ms after the call started/);
    expect(output).toMatch(/2 sign-ins: p50 [\d.]+ ms, p95/);
  });
});
