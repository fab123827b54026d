/**
 * The worker's resident memory at 1,000 cached workflows, and what holds it. `npm run bench --
 * --memory 1` asks the worker process (bench/memory/worker-memory-probe.ts preloaded) before the submit phase and
 * after it, when every submitted request's workflow waits on its clocks in the worker's cache
 * (WORKER_MAX_CACHED_WORKFLOWS, default 1000), and prints the growth by holder: the workflow thread's V8 heap (by
 * kind, from two heap snapshots), the main thread's heap, and the rest of RSS (the SDK's Rust core with its
 * workflow state machines and histories, native buffers, allocator slack).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WorkerMemory } from './worker-memory-probe';
import type { WorkerProcess } from '../worker-process';
import { heapGrowth, summarizeHeapSnapshot } from './heap-summary';

export const WORKER_MEMORY_PRELOAD = {
  modules: [fileURLToPath(new URL('./worker-memory-probe.ts', import.meta.url))],
  nodeFlags: ['--expose-gc'],
};

export interface WorkerMemorySample { label: string; openWorkflows: number; memory: WorkerMemory }

export async function sampleWorkerMemory(worker: WorkerProcess, label: string, openWorkflows: number, snapshotDir: string): Promise<WorkerMemorySample> {
  mkdirSync(snapshotDir, { recursive: true });
  const { memory } = await worker.ask<{ memory: WorkerMemory }>({ type: 'memory', snapshotDir, label });
  return { label, openWorkflows, memory };
}

const mib = (bytes: number) => (bytes / 1048576).toFixed(1);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

/** Prints the two samples and the growth per workflow by holder; returns the figures for the JSON result. */
export function reportWorkerMemory(before: WorkerMemorySample, after: WorkerMemorySample, cacheSize: number, keepSnapshots: boolean) {
  const snapshots = (s: WorkerMemorySample) => s.memory.threads.map((t) => t.snapshot).filter((f): f is string => !!f);
  const summaries = new Map([before, after].map((s) => [s, snapshots(s)[0] ? summarizeHeapSnapshot(snapshots(s)[0]) : null]));
  const sum = (s: WorkerMemorySample, of: (t: WorkerMemory['threads'][number]) => number) => s.memory.threads.reduce((total, t) => total + of(t), 0);
  const external = (s: WorkerMemorySample) => s.memory.main.externalBytes + sum(s, (t) => t.externalBytes);
  const cached = (s: WorkerMemorySample) => Math.min(s.openWorkflows, cacheSize);
  const added = cached(after) - cached(before);
  const rows: Array<[string, (s: WorkerMemorySample) => number]> = [
    ['RSS', (s) => s.memory.rssBytes],
    ['workflow thread: V8 heap committed', (s) => sum(s, (t) => t.totalBytes)],
    ['  of which live objects (heap snapshot)', (s) => [...(summaries.get(s)?.values() ?? [])].reduce((total, k) => total + k.bytes, 0)],
    ['main thread: V8 heap committed', (s) => s.memory.main.totalBytes],
    ['  of which live objects (after a full GC)', (s) => s.memory.main.usedBytes],
    ['external (buffers held by JS objects)', external],
    ['rest: Rust core, native code and buffers', (s) => s.memory.rssBytes - sum(s, (t) => t.totalBytes) - s.memory.main.totalBytes - external(s)],
  ];
  console.log('');
  console.log(`Worker memory, worker process, cache bound ${cacheSize} workflows:`);
  console.log(`  ${''.padEnd(46)} ${before.label.padStart(14)} ${after.label.padStart(14)}   per added workflow`);
  console.log(`  ${'open workflows (cached)'.padEnd(46)} ${`${before.openWorkflows} (${cached(before)})`.padStart(14)} ${`${after.openWorkflows} (${cached(after)})`.padStart(14)}`);
  const figures: Record<string, { before: number; after: number; perWorkflow: number }> = {};
  for (const [name, of] of rows) {
    const [b, a] = [of(before), of(after)];
    const per = added > 0 ? (a - b) / added : 0;
    figures[name] = { before: b, after: a, perWorkflow: per };
    console.log(`  ${name.padEnd(46)} ${`${mib(b)} MiB`.padStart(14)} ${`${mib(a)} MiB`.padStart(14)}   ${kib(per).padStart(7)} KiB`);
  }
  let growth: ReturnType<typeof heapGrowth> = [];
  const [first, last] = [summaries.get(before), summaries.get(after)];
  if (first && last) {
    growth = heapGrowth(first, last);
    console.log(`  what the workflow thread's live heap gained, by kind (self sizes, heap snapshots):`);
    for (const g of growth) {
      console.log(`    ${g.kind.slice(0, 40).padEnd(40)} ${`${mib(g.bytes)} MiB`.padStart(11)} ${String(g.count).padStart(9)} objects   ${added > 0 ? `${(g.bytes / added).toFixed(0)} B` : ''} per workflow`);
    }
  }
  if (!keepSnapshots) for (const file of [...snapshots(before), ...snapshots(after)]) rmSync(file, { force: true });
  else console.log(`  heap snapshots kept: ${[...snapshots(before), ...snapshots(after)].join(', ')}`);
  return { cacheSize, added, before, after, figures, growth };
}
