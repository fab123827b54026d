/**
 * Preloaded into the worker process by `npm run bench -- --memory 1` (`--import`): answers the bench's `memory`
 * message over the IPC channel with what the process holds, split by holder: RSS, the main
 * thread's V8 heap (activities, ORM, SDK bookkeeping) and each worker thread's (the workflows' sandbox, one thread
 * with the SDK's reused V8 context). The main thread is collected with `gc()` first (`--expose-gc`). With
 * `snapshotDir` it then writes each thread's heap snapshot there (a snapshot collects the thread's garbage first, so
 * its objects are the thread's live heap).
 *
 * The SDK creates its workflow threads with `new worker_threads.Worker(…)`, read from the module at call time: the
 * probe puts a subclass there that remembers them.
 */
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import workerThreads from 'node:worker_threads';

const threads: workerThreads.Worker[] = [];
class RememberedWorker extends workerThreads.Worker {
  constructor(...args: ConstructorParameters<typeof workerThreads.Worker>) {
    super(...args);
    threads.push(this);
    this.once('exit', () => threads.splice(threads.indexOf(this), 1));
  }
}
(workerThreads as { Worker: typeof workerThreads.Worker }).Worker = RememberedWorker;

/** `usedBytes`: live objects and garbage not yet collected; `totalBytes`: what V8 has committed for the heap. */
export interface HeapFigures { usedBytes: number; totalBytes: number; externalBytes: number }
export interface WorkerMemory { rssBytes: number; main: HeapFigures & { arrayBuffersBytes: number }; threads: Array<HeapFigures & { snapshot?: string }> }

/**
 * The figures first, then the snapshots: writing a snapshot passes hundreds of MiB through the main thread and
 * leaves RSS higher, so figures read after it would count the measurement itself.
 */
async function measure(snapshotDir: string | undefined, label: string): Promise<WorkerMemory> {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  const figures: WorkerMemory['threads'] = [];
  for (const thread of threads) {
    const stats = await thread.getHeapStatistics();
    figures.push({ usedBytes: stats.used_heap_size, totalBytes: stats.total_heap_size, externalBytes: stats.external_memory });
  }
  if (snapshotDir) {
    for (const [i, thread] of threads.entries()) {
      const file = path.join(snapshotDir, `worker-thread-${i}-${label.replace(/\W+/g, '-')}.heapsnapshot`);
      await pipeline(await thread.getHeapSnapshot(), createWriteStream(file));
      figures[i].snapshot = file;
    }
  }
  return {
    rssBytes: usage.rss, threads: figures,
    main: { usedBytes: usage.heapUsed, totalBytes: usage.heapTotal, externalBytes: usage.external, arrayBuffersBytes: usage.arrayBuffers },
  };
}

process.on('message', (message: { id: number; type: string; snapshotDir?: string; label?: string }) => {
  if (message.type !== 'memory') return;
  measure(message.snapshotDir, message.label ?? 'now').then(
    (memory) => process.send!({ id: message.id, memory }),
    (error: Error) => process.send!({ id: message.id, error: error.message }),
  );
});
process.channel?.unref(); // the probe never keeps the worker alive
