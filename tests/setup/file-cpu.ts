/**
 * setupFile of the integration projects, active only with TEST_CPU_LOG=<file>: appends one line per test file with
 * the CPU its worker process spent on it (user + system of the process, and of the child processes it started and
 * reaped: portals, Chromium, the admin CLI), so bench/file-cpu-summary.mjs can rank the files by cost. A worker runs
 * one file at a time, so the difference between this setup file's start and the file's last hook is the file's.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';

const log = process.env.TEST_CPU_LOG;
const ticksPerSecond = 100; // CLK_TCK on Linux

/** utime, stime, cutime, cstime of this process in seconds (/proc/self/stat fields 14 to 17). */
function cpuTimes(): [own: number, children: number] {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const at = (field: number) => Number(fields[field - 3]) / ticksPerSecond;
  return [at(14) + at(15), at(16) + at(17)];
}

if (log) {
  // Taken when the setup file runs (before the file's database is cloned and its modules imported), not in a hook.
  const start = cpuTimes();
  const startedAt = performance.now();
  // eslint-disable-next-line no-empty-pattern -- Vitest 4 passes the test context first (it reads its pattern) and the file second
  afterAll(({}, suite) => {
    const [own, children] = cpuTimes();
    const file = path.relative(process.cwd(), (suite as { file?: { filepath: string } }).file?.filepath ?? 'unknown');
    const wall = (performance.now() - startedAt) / 1000;
    appendFileSync(log, `${file}\t${(own - start[0]).toFixed(2)}\t${(children - start[1]).toFixed(2)}\t${wall.toFixed(1)}\n`);
  });
}
