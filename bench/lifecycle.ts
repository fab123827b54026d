/**
 * How every bench ends: what it started (child processes, servers, browsers, databases, folders) is stopped in the
 * reverse order it was started, whether the bench finished, failed half-way or was interrupted (Ctrl-C, SIGTERM); then
 * any process of its own still running (a child whose stop failed, a browser a library launched) is killed. A bench
 * that fails never leaves a server holding a port or a process working for nobody.
 *
 *   stopLater('stop the API process', () => api.stop());   // as soon as it started
 *   runBench('bench:lists', main);                          // main answers the exit code (or throws)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Stop = () => unknown;
/** One bench runs per process: its list of what to stop is the process's. */
const stops: Array<[string, Stop]> = [];
let label = 'bench';
let ending = false;

const warn = (line: string) => console.error(`[${label}] ${line}`);

/**
 * `--smoke`: the suite's small run of a bench (tests/infra/bench-smoke-*.test.ts), proving it still works rather than
 * measuring: a missed target is printed but does not fail the run (its exit code then says only whether every answer,
 * email and letter was as it should be), and the machine's calibration is not run (seconds of CPU that say nothing
 * of a run this small). The sizes are the bench's own options, given beside it.
 */
export const SMOKE = process.argv.includes('--smoke');
export const targetsFailTheRun = !SMOKE;

/**
 * Where a bench writes its results (JSON reports, generated files, profiles): bench/results/, or BENCH_RESULTS_DIR
 * (the suite's smoke runs write to a folder of their own, removed after).
 */
export const RESULTS_DIR = process.env.BENCH_RESULTS_DIR
  ? path.resolve(process.env.BENCH_RESULTS_DIR)
  : path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

/** The calibration script the machines share (a fixed workload's median ms: lower is faster), when it is there. */
const CALIBRATE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'calibrate.mjs');

/** The machine's speed, to print beside timings (figures compare only with it); null in a smoke run or without the script. */
export function calibration(): string | null {
  if (SMOKE || !fs.existsSync(CALIBRATE)) return null;
  return execFileSync(process.execPath, [CALIBRATE], { encoding: 'utf8' }).trim();
}

/** Registers how to stop something the bench just started (stopped last-in first-out when the bench ends). */
export function stopLater(name: string, stop: Stop): void {
  stops.push([name, stop]);
}

/** Pids of every live descendant of `rootPid` (Linux /proc; empty elsewhere). */
export function descendants(rootPid: number): number[] {
  const parent = new Map<number, number>();
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch { /* gone */ }
    }
  } catch {
    return [];
  }
  return [...parent.keys()].filter((pid) => {
    let p = parent.get(pid);
    while (p && p !== rootPid && p !== 1) p = parent.get(p);
    return p === rootPid;
  });
}

const isZombie = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] === 'Z';
  } catch {
    return true; // gone
  }
};

const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 3).join(' ').slice(0, 120);
  } catch {
    return '?';
  }
};

/**
 * Stops what was registered so far, newest first; a stop that fails or hangs (30 s) does not keep the others from
 * running. A bench that measures things one after another (each alone on the machine) calls it between them.
 */
export async function stopStarted(): Promise<void> {
  while (stops.length) {
    const [name, stop] = stops.pop()!;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(stop),
        new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('no answer within 30 s')), 30_000); }),
      ]);
    } catch (error) {
      warn(`cleanup: ${name} failed: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

async function stopEverything(): Promise<void> {
  await stopStarted();
  // Whatever is still running below this process was started by the bench and not stopped: killed, and named. Not
  // counted: a child that has exited and is not reaped yet (a zombie runs nothing), and esbuild's service, which tsx
  // (and a build) keep as a child of every process that transforms code, and which ends with its parent.
  for (const pid of descendants(process.pid).filter((child) => !isZombie(child) && !/esbuild.*--service/.test(commandOf(child)))) {
    warn(`cleanup: killing process ${pid} left running (${commandOf(pid)})`);
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone meanwhile */ }
  }
}

/** Stops everything, then exits with `code`. A second call (a signal during the cleanup) waits for the first. */
export async function endBench(code: number): Promise<never> {
  if (ending) return new Promise<never>(() => {});
  ending = true;
  await stopEverything();
  process.exit(code);
}

/**
 * Runs a bench's `main` and ends it: its answer is the exit code (none: 0); a failure is printed and exits 1; SIGINT
 * or SIGTERM stops everything and exits 130 (a third one exits at once).
 */
export function runBench(name: string, main: () => Promise<number | void>): void {
  label = name;
  // playwright-core installs a SIGINT handler on launch that closes its browsers and exits with 130 at once, which
  // would cut the cleanup short: dropped (the cleanup closes the browsers; playwright's exit hook stays).
  process.on('newListener', (event, listener) => {
    if (event === 'SIGINT' && (listener as { name?: string }).name === 'sigintHandler') {
      setImmediate(() => process.off('SIGINT', listener as (...args: unknown[]) => void));
    }
  });
  let interrupts = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      interrupts += 1;
      if (interrupts >= 3) {
        warn('forced exit: what the bench started may be left running');
        process.exit(130);
      }
      if (interrupts === 1) warn(`${signal}: stopping…`);
      void endBench(130);
    });
  }
  main().then((code) => endBench(code ?? 0), (error: unknown) => {
    warn(`FAILED: ${(error as Error)?.stack ?? error}`);
    return endBench(1);
  });
}
