/**
 * Reads a reply's new text (mail-in/processing/reply-text.ts) on a thread of its own, bounded in time, memory and stack,
 * at a lower CPU priority: any requester can email markup that takes seconds (or the whole stack) to convert, and the
 * worker that reads replies also sends every status email and letter. A message the thread cannot read within the
 * bounds is "unreadable" (answered once, never retried); the worker's event loop never runs the conversion.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Semaphore } from 'async-mutex';
import { Piscina } from 'piscina';
import type { ReplyReading } from './reply-text.thread';

/** Longest a reading may take: a reply at the size limit reads in well under a second on a slow machine. */
export const REPLY_READ_TIMEOUT_MS = 10_000;

export interface ReplyTextReader {
  read(body: { text?: string | null; html?: string | null }): Promise<ReplyReading>;
  close(): Promise<void>;
}

/**
 * The thread's module: the production build's own file beside the bundle (scripts/build.ts names it
 * reply-text-thread.js), else the TypeScript source loaded through tsx (development and tests).
 */
function threadModule(): { filename: string; execArgv: string[] } {
  const built = new URL('./reply-text-thread.js', import.meta.url);
  if (fs.existsSync(fileURLToPath(built))) return { filename: built.href, execArgv: [] };
  return { filename: new URL('./reply-text.thread.ts', import.meta.url).href, execArgv: ['--import', 'tsx'] };
}

/** What ends a reading for good: the time bound, the memory bound, the thread dying under the message. */
function isMessageFault(error: unknown): boolean {
  const e = error as { name?: string; code?: string };
  return e.name === 'AbortError' || e.code === 'ERR_WORKER_OUT_OF_MEMORY' || e.name === 'RangeError';
}

/** Threads at most: replies come a few at a time, and the request work keeps the rest of the machine. */
const THREADS = 2;

export function createReplyTextReader(options: { timeoutMs?: number } = {}): ReplyTextReader {
  const timeoutMs = options.timeoutMs ?? REPLY_READ_TIMEOUT_MS;
  let pool: Piscina | null = null;
  const poolOf = () => (pool ??= new Piscina({
    ...threadModule(),
    // Started on the first reply and stopped after a minute idle.
    minThreads: 0, maxThreads: THREADS, idleTimeout: 60_000,
    niceIncrement: 10,
    resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
  }));
  // A reading's time bound counts from when a thread takes it, never while it waits behind others (a burst of
  // replies: the pool's own queue would count the wait), nor while a thread starts and loads the libraries (the
  // warm-up task before it, unbounded: a slow start is the machine's, not the message's).
  const threads = new Semaphore(THREADS);
  return {
    read(body) {
      return threads.runExclusive(async () => {
        const pool = poolOf();
        await pool.run({ warm: true });
        try {
          return await pool.run(body, { signal: AbortSignal.timeout(timeoutMs) }) as ReplyReading;
        } catch (error) {
          if (isMessageFault(error)) return { unreadable: `${(error as Error).name}: ${(error as Error).message}`.slice(0, 200) };
          throw error;
        }
      });
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}
