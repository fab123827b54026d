/**
 * Runs a bench as a developer runs it, `npm run <script> -- <size options> --smoke`, and answers what it printed
 * and how it ended (bench/lifecycle.ts says what `--smoke` changes). Every process a bench starts inherits a mark
 * in its environment (BENCH_RUN_MARK), so whatever it left running is found afterwards, even a child whose parent has
 * gone: `leftRunning(mark)`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { eventually } from './eventually';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface BenchRun {
  /** the npm process; its exit code is the bench's */
  child: ChildProcess;
  mark: string;
  /** stdout and stderr so far, in order */
  output(): string;
  /** resolves with the exit code once the bench has ended */
  ended: Promise<number | null>;
}

/**
 * Settings every smoke run of a file shares: the run's own production build (its server.js, so no bench builds one),
 * the PostgreSQL server of the run for the benches' throw-away databases, a results folder of the file's own instead
 * of bench/results/ (`removeResults` deletes it), and nothing of the test process's loader.
 */
export function benchEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env, BENCH_SERVER_BUILD: inject('productionBuild').outDir, BENCH_RESULTS_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'coi-bench-results-')),
    FORCE_COLOR: '0', ...extra,
  };
  delete env.NODE_OPTIONS;
  return env;
}

export const removeResults = (env: NodeJS.ProcessEnv) => fs.rmSync(env.BENCH_RESULTS_DIR!, { recursive: true, force: true });

export function startBench(script: string, args: string[], env: NodeJS.ProcessEnv = benchEnvironment()): BenchRun {
  const mark = randomBytes(8).toString('hex');
  const child = spawn('npm', ['run', '--silent', script, '--', ...args, '--smoke'], {
    cwd: root, env: { ...env, BENCH_RUN_MARK: mark }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
  const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, mark, output: () => text, ended };
}

/** Runs the bench to its end: its exit code and output. */
export async function runBenchToEnd(script: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string; mark: string }> {
  const run = startBench(script, args, env);
  const code = await run.ended;
  return { code, output: run.output(), mark: run.mark };
}

/** Processes still running with the run's mark in their environment (Linux /proc): what a bench left behind. */
export function leftRunning(mark: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/environ`, 'latin1').includes(`BENCH_RUN_MARK=${mark}`)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat[stat.lastIndexOf(')') + 2] === 'Z') continue; // exited, not yet reaped: runs nothing
      found.push(`${entry} ${fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 160)}`);
    } catch { /* gone, or not ours to read */ }
  }
  return found;
}

/** What the run with `mark` still has running once its processes had time to end (30 s): empty when it stopped everything. */
export async function leftRunningAfter(mark: string): Promise<string[]> {
  await eventually(async () => leftRunning(mark).length === 0, 30_000).catch(() => undefined);
  return leftRunning(mark);
}
