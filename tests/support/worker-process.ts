/**
 * The worker as a process of its own, for tests that kill it with SIGKILL mid-work: the production build's worker
 * (plain node, as in production; through tsx each start cost seconds more), on the harness's database, Temporal task
 * queue, SMTP sink and files. `start` resolves once it polls its task queue; `kill` once it has exited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { fileDatabaseUrl } from './file-database';
import type { Harness } from './portal-harness';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface WorkerProcess { start(): Promise<void>; kill(): Promise<void>; running(): boolean }

/** `env`: settings of the worker beside the harness's own (a renewal run's pace, say), read at each start. */
export function workerProcess(h: () => Harness, env: () => Record<string, string> = () => ({})): WorkerProcess {
  let worker: ChildProcess | null = null;
  return {
    running: () => worker !== null,
    async start() {
      const harness = h();
      const child = spawn(process.execPath, ['--enable-source-maps', path.join(inject('productionBuild').outDir, 'worker.js')], {
        cwd: root, stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env, DATABASE_URL: fileDatabaseUrl(), TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_TASK_QUEUE: harness.config.taskQueue,
          SMTP_URL: harness.sink.url, DATA_DIR: harness.config.dataDir, WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
          PUBLIC_URL: harness.config.publicUrl, METRICS_PORT: '0', LOG_LEVEL: 'warn', ...env(),
        },
      });
      worker = child;
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker not ready in 120 s:\n${output.slice(-2000)}`)), 120_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('worker polling task queue')) { clearTimeout(timer); resolve(); }
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        child.once('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`worker exited (${code ?? signal}):\n${output.slice(-2000)}`)); });
      });
    },
    kill() {
      const child = worker!;
      worker = null;
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      return exited;
    },
  };
}
