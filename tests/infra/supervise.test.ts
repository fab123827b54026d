/**
 * devtools/supervise.ts, the supervision `npm start` gives the worker and the API: a child killed with SIGKILL is
 * restarted (and says so), restarts back off exponentially up to the cap and start over after a long enough run,
 * leftovers of a crashed child's process group are killed, and stop() stops the child without restarting it.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { describeExit, Supervisor, type ChildExit, type SuperviseOptions } from '../../devtools/supervise';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * "Nothing comes back" after stop(): the supervisor's restart timer lives in this process, so a sleep longer than the
 * restart delay, started after it, fires after it however busy the machine (Node runs due timers in order of their
 * due time): the wait is ordered by the event it waits for, not raced against it.
 */
const longerThanTheRestartDelay = (restartDelayMs: number) => sleep(restartDelayMs + 200);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function waitUntil(condition: () => boolean, timeoutMs = 60_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A node child running `code`; prints "ready <pid>" first. */
const nodeChild = (code: string): Pick<SuperviseOptions, 'command' | 'args'> => ({
  command: process.execPath,
  args: ['-e', `console.log('ready ' + process.pid); ${code}`],
});
const STAYS_UP = 'setInterval(() => {}, 1000);';

const supervisors: Supervisor[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.stop('SIGKILL')));
});

function supervisor(options: Partial<SuperviseOptions> & Pick<SuperviseOptions, 'command'>) {
  const lines: string[] = [];
  const spawned: ChildProcess[] = [];
  const exits: ChildExit[] = [];
  const s = new Supervisor({ name: 'child', log: (line) => lines.push(line), initialDelayMs: 100, ...options });
  s.on('spawn', (child: ChildProcess) => spawned.push(child));
  s.on('exit', (exit: ChildExit) => exits.push(exit));
  supervisors.push(s);
  return { s, lines, spawned, exits };
}

async function readyLine(child: ChildProcess): Promise<string> {
  let out = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => { out += chunk; });
  await waitUntil(() => out.includes('ready'), 60_000, 'the child to print ready');
  return out;
}

describe('Supervisor', () => {
  it('restarts a child killed with SIGKILL, says so, and stop() stops it without a restart', async () => {
    const { s, lines, spawned, exits } = supervisor({ ...nodeChild(STAYS_UP) });
    s.start();
    expect(spawned).toHaveLength(1);
    const first = spawned[0];
    await readyLine(first);

    const killedAt = Date.now();
    process.kill(first.pid!, 'SIGKILL');
    await waitUntil(() => spawned.length === 2, 60_000, 'the restart');
    const second = spawned[1];
    await readyLine(second);
    const latency = Date.now() - killedAt;

    expect(second.pid).not.toBe(first.pid);
    expect(alive(first.pid!)).toBe(false);
    expect(exits[0]).toMatchObject({ name: 'child', pid: first.pid, code: null, signal: 'SIGKILL', restartInMs: 100, restart: 1 });
    expect(lines[0]).toMatch(/^child exited unexpectedly \(signal SIGKILL\) after [\d.]+ s; restarting in 0\.1 s at \d\d:\d\d:\d\d \(restart 1\)$/);
    expect(lines[1]).toBe(`child restarted (pid ${second.pid})`);
    expect(s.restartCount).toBe(1);
    expect(latency).toBeGreaterThanOrEqual(100);

    await s.stop();
    expect(second.exitCode !== null || second.signalCode !== null).toBe(true);
    expect(alive(second.pid!)).toBe(false);
    expect(s.child).toBeNull();
    await longerThanTheRestartDelay(100); // nothing comes back
    expect(spawned).toHaveLength(2);
    expect(exits.at(-1)).toMatchObject({ pid: second.pid, restartInMs: null });
    expect(lines.filter((l) => l.includes('restart'))).toHaveLength(2);
  });

  it('backs off exponentially up to the cap, reporting the exit code', async () => {
    const { s, exits } = supervisor({ ...nodeChild('process.exit(3);'), initialDelayMs: 40, maxDelayMs: 160, resetAfterMs: 60_000 });
    s.start();
    await waitUntil(() => exits.length >= 5, 60_000, 'five exits');
    await s.stop();
    expect(exits.slice(0, 5).map((e) => e.restartInMs)).toEqual([40, 80, 160, 160, 160]);
    expect(exits.slice(0, 5).map((e) => e.restart)).toEqual([1, 2, 3, 4, 5]);
    expect(exits[0]).toMatchObject({ code: 3, signal: null });
    expect(describeExit(exits[0])).toBe('exit code 3');
  });

  it('starts over at the first delay once the child stayed up long enough', () => {
    const s = new Supervisor({ name: 'x', command: 'true', initialDelayMs: 1000, maxDelayMs: 30_000, resetAfterMs: 60_000 });
    expect([1, 2, 3, 4, 5, 6, 7].map(() => s.nextDelay(500))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(s.nextDelay(60_000)).toBe(1000);
    expect(s.nextDelay(10)).toBe(2000);
  });

  it('by default, a child that ran 10 s restarts within 2 s however often it crashed before', () => {
    const s = new Supervisor({ name: 'x', command: 'true' });
    [1, 2, 3, 4, 5, 6].forEach(() => s.nextDelay(2_000)); // a crash loop at start-up climbs to the 30 s cap
    expect(s.nextDelay(2_000)).toBe(30_000);
    expect(s.nextDelay(10_000)).toBe(1000);
    expect(s.nextDelay(12_000)).toBe(1000);
  });

  it('stop() during the restart delay cancels the restart', async () => {
    const { s, spawned, exits } = supervisor({ ...nodeChild('process.exit(1);'), initialDelayMs: 300 });
    s.start();
    await waitUntil(() => exits.length === 1, 60_000, 'the first exit');
    await s.stop();
    await longerThanTheRestartDelay(300);
    expect(spawned).toHaveLength(1);
    expect(s.child).toBeNull();
  });

  it('kills what is left of a crashed child process group (e.g. a browser it launched)', async () => {
    const grandchild = `const g = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('grandchild ' + g.pid); ${STAYS_UP}`;
    const { s, spawned } = supervisor({ ...nodeChild(grandchild), initialDelayMs: 5000 });
    s.start();
    let out = '';
    spawned[0].stdout!.setEncoding('utf8');
    spawned[0].stdout!.on('data', (chunk: string) => { out += chunk; });
    await waitUntil(() => /grandchild \d+/.test(out), 60_000, 'the grandchild');
    const grandchildPid = Number(/grandchild (\d+)/.exec(out)![1]);
    expect(alive(grandchildPid)).toBe(true);
    process.kill(spawned[0].pid!, 'SIGKILL');
    await waitUntil(() => !alive(grandchildPid), 60_000, 'the grandchild to be killed');
    await s.stop();
  });

  it('reports a child that cannot be started and leaves it down when shouldRestart says no', async () => {
    const { s, lines, exits } = supervisor({ command: '/nonexistent/program', shouldRestart: () => false });
    const stopped = once(s, 'stopped');
    s.start();
    await stopped;
    expect(exits).toHaveLength(1);
    expect(exits[0].error?.message).toMatch(/ENOENT/);
    expect(exits[0].restartInMs).toBeNull();
    expect(lines[0]).toMatch(/^child could not start: .*ENOENT.*; not restarted$/);
    expect(s.stopped).toBe(true);
  });
});
