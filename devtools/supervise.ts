/**
 * Keeps one child process running (scripts/start-portal.ts for the worker and the API, devtools/production-shape.ts for
 * each of its processes; it lives in devtools/ because scripts/ imports devtools/, never the reverse): when it exits
 * without being asked to, it is started again after a delay that doubles with each consecutive crash
 * (1 s, 2 s, 4 s … capped at 30 s by default) and goes back to the first step once the child has stayed up for
 * `resetAfterMs` (10 s). Every exit and restart is reported through `log`. `stop()` ends it for good: SIGTERM, then
 * SIGKILL after a grace period, no restart, and a restart that was waiting is cancelled.
 *
 * Children are started `detached` (their own process group) by default, so a terminal Ctrl-C reaches only the
 * supervising process, which stops them in order. After a child exits, whatever is left in its process group (a
 * Chromium the worker had launched, say) is killed, so a crash never leaves orphans behind.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { EventEmitter } from 'node:events';

export interface SuperviseOptions {
  /** Shown in every line, e.g. `worker`. */
  name: string;
  command: string;
  args?: string[];
  /** Passed to spawn; `detached` defaults to true and `stdio` to ['ignore', 'pipe', 'pipe']. */
  spawnOptions?: SpawnOptions;
  /** First restart delay (default 1000 ms); doubles after each consecutive crash. */
  initialDelayMs?: number;
  /** Longest restart delay (default 30 000 ms). */
  maxDelayMs?: number;
  /**
   * A child that stayed up this long before crashing restarts after `initialDelayMs` again (default 10 000 ms).
   * 10 s: the worker and the API are ready within about 5 s of their start, so a child that ran 10 s had run
   * stably; a crash then is a new incident, not a crash loop, and waits 1 s (with 60 s, a worker
   * killed five times in an afternoon, each after a few seconds of traffic, waited 30 s).
   */
  resetAfterMs?: number;
  /** Time between SIGTERM and SIGKILL in stop() (default 5000 ms). */
  stopGraceMs?: number;
  /** Asked after each unexpected exit; returning false leaves the child down (the supervisor is then stopped). */
  shouldRestart?: (exit: ChildExit) => boolean;
  log?: (line: string) => void;
  /** Epoch ms (tests). */
  now?: () => number;
}

export interface ChildExit {
  name: string;
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (spawn error). */
  error?: Error;
  uptimeMs: number;
  /** Delay before the restart; null when it is not restarted. */
  restartInMs: number | null;
  /** Number of the restart that follows (1 for the first). */
  restart: number;
}

/** How a child ended, in words: `exit code 1`, `signal SIGKILL`, `could not start: …`. */
export function describeExit(exit: Pick<ChildExit, 'code' | 'signal' | 'error'>): string {
  if (exit.error) return `could not start: ${exit.error.message}`;
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}

const secondsText = (ms: number) => `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;
const clock = (epochMs: number) => new Date(epochMs).toTimeString().slice(0, 8);

/**
 * Events: `spawn` (child: ChildProcess, restart: number — 0 for the first start), `exit` (ChildExit),
 * `stopped` (). Construct, attach listeners, then call start().
 */
export class Supervisor extends EventEmitter {
  readonly name: string;
  private readonly options: Required<Omit<SuperviseOptions, 'shouldRestart' | 'spawnOptions' | 'args'>> &
    Pick<SuperviseOptions, 'shouldRestart'> & { args: string[]; spawnOptions: SpawnOptions };

  private current: ChildProcess | null = null;
  private startedAt = 0;
  private consecutiveCrashes = 0;
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  private stopPromise: Promise<void> | null = null;

  constructor(options: SuperviseOptions) {
    super();
    this.name = options.name;
    this.options = {
      name: options.name,
      command: options.command,
      args: options.args ?? [],
      spawnOptions: options.spawnOptions ?? {},
      initialDelayMs: options.initialDelayMs ?? 1000,
      maxDelayMs: options.maxDelayMs ?? 30_000,
      resetAfterMs: options.resetAfterMs ?? 10_000,
      stopGraceMs: options.stopGraceMs ?? 5000,
      shouldRestart: options.shouldRestart,
      log: options.log ?? (() => {}),
      now: options.now ?? Date.now,
    };
  }

  /** The running child, if any. */
  get child(): ChildProcess | null {
    return this.current;
  }

  /** How many times the child has been restarted. */
  get restartCount(): number {
    return this.restarts;
  }

  get stopped(): boolean {
    return this.stopping;
  }

  start(): this {
    if (this.current || this.stopping) return this;
    this.spawnChild();
    return this;
  }

  /** Delay before the next restart, given how long the child that just exited had been up. */
  nextDelay(uptimeMs: number): number {
    if (uptimeMs >= this.options.resetAfterMs) this.consecutiveCrashes = 0;
    this.consecutiveCrashes += 1;
    return Math.min(this.options.initialDelayMs * 2 ** (this.consecutiveCrashes - 1), this.options.maxDelayMs);
  }

  private spawnChild(): void {
    const { command, args, spawnOptions } = this.options;
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...spawnOptions });
    this.current = child;
    this.startedAt = this.options.now();
    let ended = false;
    const onEnd = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      if (ended) return;
      ended = true;
      if (this.current === child) this.current = null;
      this.killGroup(child);
      this.handleExit(child, code, signal, error);
    };
    child.once('exit', (code, signal) => onEnd(code, signal));
    // 'error' without a pid: the process never started (no 'exit' follows). With a pid it is a failed kill().
    child.on('error', (error) => {
      if (child.pid === undefined) onEnd(null, null, error);
    });
    if (child.pid !== undefined) this.emit('spawn', child, this.restarts);
  }

  private handleExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null, error?: Error): void {
    const uptimeMs = this.options.now() - this.startedAt;
    if (this.stopping) {
      this.emit('exit', { name: this.name, pid: child.pid, code, signal, error, uptimeMs, restartInMs: null, restart: this.restarts } satisfies ChildExit);
      return;
    }
    const exit: ChildExit = { name: this.name, pid: child.pid, code, signal, error, uptimeMs, restartInMs: null, restart: this.restarts + 1 };
    if (this.options.shouldRestart && !this.options.shouldRestart(exit)) {
      this.options.log(`${this.name} ${error ? describeExit(exit) : `exited (${describeExit(exit)})`} after ${secondsText(uptimeMs)}; not restarted`);
      this.stopping = true;
      this.emit('exit', exit);
      this.emit('stopped');
      return;
    }
    exit.restartInMs = this.nextDelay(uptimeMs);
    const at = this.options.now() + exit.restartInMs;
    this.options.log(
      `${this.name} ${error ? describeExit(exit) : `exited unexpectedly (${describeExit(exit)})`} after ${secondsText(uptimeMs)}; ` +
      `restarting in ${secondsText(exit.restartInMs)} at ${clock(at)} (restart ${exit.restart}` +
      `${this.consecutiveCrashes > 1 ? `, crash ${this.consecutiveCrashes} in a row` : ''})`,
    );
    this.emit('exit', exit);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping) return;
      this.restarts += 1;
      this.spawnChild();
      if (this.current?.pid !== undefined) this.options.log(`${this.name} restarted (pid ${this.current.pid})`);
    }, exit.restartInMs);
  }

  /** Kills what is left of the child's process group (only when it has its own group). */
  private killGroup(child: ChildProcess): void {
    if (this.options.spawnOptions.detached === false || child.pid === undefined || process.platform === 'win32') return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // ESRCH: nothing left in the group
    }
  }

  /** Stops the child (SIGTERM, then SIGKILL after the grace period) and never restarts it. Idempotent. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.stopPromise) return this.stopPromise;
    this.stopping = true;
    if (this.restartTimer) {
      clearTimeout(this.restartTimer);
      this.restartTimer = null;
    }
    const child = this.current;
    this.stopPromise = new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        this.options.log(`${this.name} did not stop within ${secondsText(this.options.stopGraceMs)}; killing it`);
        try { child.kill('SIGKILL'); } catch { /* already gone */ }
      }, this.options.stopGraceMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      try {
        child.kill(signal);
      } catch {
        clearTimeout(timer);
        resolve();
      }
    }).then(() => {
      this.emit('stopped');
    });
    return this.stopPromise;
  }
}
