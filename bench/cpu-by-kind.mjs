/**
 * Where a run's CPU goes, by kind of process: samples `/proc/<pid>/stat` of every process in a cgroup every half
 * second and prints, when told to stop (SIGTERM/SIGINT), the last CPU figure of each process summed by kind. Processes
 * that live less than half a second are missed (a few per cent of the total). bench/suite-cpu.sh starts it with
 * `--by-kind`; by hand: `node bench/cpu-by-kind.mjs /sys/fs/cgroup/cpuacct/<group> > out.txt &`.
 */
import { readFileSync } from 'node:fs';

const group = process.argv[2];
if (!group) { console.error('usage: node bench/cpu-by-kind.mjs <cgroup dir>'); process.exit(2); }
const ticks = 100; // CLK_TCK on Linux
/** pid → { kind, cpu (ticks), start (ticks since boot, to tell a reused pid) } */
const seen = new Map();

const read = (file) => { try { return readFileSync(file, 'utf8'); } catch { return null; } };

function kindOf(pid, comm) {
  const cmd = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ');
  if (/chrom/.test(cmd) || /chrom/.test(comm)) {
    const type = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? 'browser';
    return `chromium ${type}`;
  }
  if (comm === 'postgres') return 'postgresql';
  if (/temporal-server|temporal server|start-dev/.test(cmd)) return 'temporal server';
  if (/vitest\/dist\/workers|vitest\/dist\/chunks|forks\.js|threads\.js/.test(cmd) && !/vitest\.mjs/.test(cmd)) return 'vitest worker';
  if (/vitest\.mjs/.test(cmd)) return 'vitest main';
  if (/typescript\/bin\/tsc|tsc --noEmit/.test(cmd)) return 'tsc';
  if (/run-tests\.ts/.test(cmd)) return 'run-tests (eslint)';
  if (/vite\.js build|vite build/.test(cmd)) return 'vite build';
  if (/esbuild/.test(cmd) || comm === 'esbuild') return 'esbuild';
  if (/\bgo\b|\/go\/|compile|\blink\b/.test(comm)) return 'go build';
  if (/node|tsx/.test(cmd)) return `node: ${cmd.replace(/^\S*node\S*\s+/, '').replace(/\S*node_modules\/\S+\s*/g, '').slice(0, 60) || 'node'}`;
  return comm;
}

function sample() {
  const procs = read(`${group}/cgroup.procs`);
  if (!procs) return;
  for (const pid of procs.split('\n').filter(Boolean)) {
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const cpu = Number(fields[11]) + Number(fields[12]);
    const start = fields[19];
    const key = `${pid}:${start}`;
    let entry = seen.get(key);
    if (!entry) { entry = { kind: kindOf(pid, comm), cpu: 0 }; seen.set(key, entry); }
    entry.cpu = cpu;
  }
}

function report() {
  const byKind = new Map();
  for (const { kind, cpu } of seen.values()) {
    const k = byKind.get(kind) ?? { cpu: 0, n: 0 };
    k.cpu += cpu; k.n += 1;
    byKind.set(kind, k);
  }
  const rows = [...byKind].sort((a, b) => b[1].cpu - a[1].cpu);
  const total = rows.reduce((s, [, k]) => s + k.cpu, 0);
  console.log(`[cpu-by-kind] ${(total / ticks).toFixed(0)} s sampled over ${seen.size} processes`);
  for (const [kind, k] of rows) if (k.cpu >= ticks / 2) console.log(`  ${(k.cpu / ticks).toFixed(1).padStart(7)} s  ${String(k.n).padStart(4)}×  ${kind}`);
  process.exit(0);
}

const timer = setInterval(sample, 500);
process.on('SIGTERM', () => { clearInterval(timer); sample(); report(); });
process.on('SIGINT', () => { clearInterval(timer); sample(); report(); });
