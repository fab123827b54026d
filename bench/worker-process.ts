/**
 * The worker as its own process, as `npm start`, docker-compose.yml and the production shape run it (the
 * figures must hold for the final wiring). `node --import tsx worker/worker.ts` with the bench's settings; ready
 * when it says it polls. Its stderr and any line above `warn` are passed on.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rssOf } from './process-profile';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface WorkerProcess {
  pid: number; stop(): Promise<void>; rssBytes(): number;
  /** a message to a module preloaded with `preload` (over the IPC channel), and its answer */
  ask<T>(message: Record<string, unknown>): Promise<T>;
}

/** `preload`: modules imported before the worker's (e.g. bench/memory/worker-memory-probe.ts), with an IPC channel to them. */
export async function startWorkerProcess(
  env: NodeJS.ProcessEnv, say: (line: string) => void, timeoutMs = 120_000, preload: { modules: string[]; nodeFlags?: string[] } | null = null,
): Promise<WorkerProcess> {
  const preloads = (preload?.modules ?? []).flatMap((module) => ['--import', module]);
  // BENCH_WORKER_NODE_FLAGS: node flags for the worker process alone, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p` (its main
  // thread's and every workflow thread's CPU profile, written when it stops).
  const extraFlags = (process.env.BENCH_WORKER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...extraFlags, ...(preload?.nodeFlags ?? []), '--import', 'tsx', ...preloads, 'worker/worker.ts'], {
    cwd: root, env: { ...env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe', ...(preload ? ['ipc' as const] : [])],
  });
  let asked = 0;
  const answers = new Map<number, (message: { error?: string }) => void>();
  child.on('message', (message: { id: number; error?: string }) => { answers.get(message.id)?.(message); answers.delete(message.id); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start polling within ${timeoutMs / 1000} s`)), timeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        if (line.startsWith('worker polling task queue')) { clearTimeout(timer); resolve(); }
        else if (/"level":(50|60)/.test(line)) say(`[worker] ${line.slice(0, 400)}`);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) if (!/No workflows registered|ExperimentalWarning/.test(line)) say(`[worker] ${line.slice(0, 400)}`);
    });
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`the worker exited with ${code} before it polled`)); });
  });
  return {
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 15_000))]);
      if (!stopped) child.kill('SIGKILL');
    },
    rssBytes: () => rssOf(child.pid!),
    ask<T>(message: Record<string, unknown>) {
      if (!preload) return Promise.reject(new Error('the worker was started without a preload: nothing answers'));
      const id = ++asked;
      return new Promise<T>((resolve, reject) => {
        answers.set(id, (answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer as T)));
        // a worker that dies before answering fails the question instead of hanging the bench
        void exited.then((code) => { if (answers.delete(id)) reject(new Error(`the worker exited with ${code} before answering`)); });
        child.send({ ...message, id });
      });
    },
  };
}
