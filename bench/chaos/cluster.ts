/**
 * The portal as separate processes the chaos run can kill -9 and bring back: the Temporal dev server (on a SQLite
 * file, so its state survives the kill), the worker and the API (each `node --import tsx <entry>`, or `node dist/<entry>.js`
 * of a production build), and optionally
 * a PostgreSQL of the run's own (embedded), crashed with an immediate shutdown and started again on its cluster.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres, type LocalPostgres } from '../../devtools/postgres/embedded-postgres';
import { ensureTemporalServer, isPortOpen, parseAddress, type TemporalServerHandle } from '../../devtools/temporal/dev-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Target = 'worker' | 'api' | 'temporal' | 'postgres';

export interface Component {
  readonly name: Target;
  readonly errors?: string[];
  /** true between "ready" and the next kill */
  up: boolean;
  start(): Promise<void>;
  kill(): void;
  stop(): Promise<void>;
}

/** A Node process of ours; `ready` tells when it serves. */
class NodeComponent implements Component {
  up = false;
  private child: ChildProcess | null = null;
  private tail: string[] = [];
  /** error lines of every run of this component, for the report */
  readonly errors: string[] = [];

  constructor(
    readonly name: Target,
    private readonly entry: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly ready: (output: string[]) => Promise<boolean>,
  ) {}

  async start(): Promise<void> {
    this.tail = [];
    // An entry of a production build (dist/*.js) runs on plain Node; a source file through tsx.
    const args = this.entry.endsWith('.js') ? ['--enable-source-maps', this.entry] : ['--import', 'tsx', path.join(root, this.entry)];
    const child = spawn(process.execPath, args, {
      cwd: root, env: this.env, stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      const lines = chunk.toString().split('\n').filter(Boolean);
      this.tail = [...this.tail, ...lines].slice(-40);
      for (const line of lines) if (/error/i.test(line) && this.errors.length < 200) this.errors.push(line.slice(0, 2000));
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const deadline = Date.now() + 60_000;
    while (!(await this.ready(this.tail))) {
      if (child.exitCode !== null || child.signalCode !== null) {
        // It died while starting (its dependency was just killed, say): the caller starts it again.
        throw new Error(`${this.name} exited while starting:\n${this.tail.slice(-8).join('\n')}`);
      }
      if (Date.now() > deadline) throw new Error(`${this.name} not ready within 60 s:\n${this.tail.slice(-8).join('\n')}`);
      await sleep(100);
    }
    this.up = true;
  }

  kill(): void {
    this.up = false;
    this.child?.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    this.up = false;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(5000)]);
    child.kill('SIGKILL');
  }
}

class TemporalComponent implements Component {
  readonly name = 'temporal' as const;
  up = false;
  private handle: TemporalServerHandle | null = null;

  constructor(private readonly address: string, private readonly dataDir: string) {}

  async start(): Promise<void> {
    this.handle = await ensureTemporalServer({ address: this.address, dataDir: this.dataDir });
    this.up = true;
  }

  kill(): void {
    this.up = false;
    this.handle?.process?.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    this.up = false;
    await this.handle?.stop();
  }
}

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

/**
 * PostgreSQL crashing: SIGQUIT to the postmaster is PostgreSQL's immediate shutdown (every backend ends at once, no
 * checkpoint, crash recovery from the WAL at the next start), what a killed or crashed server leaves. SIGKILL of the
 * postmaster alone would leave its backends holding the shared memory, and the next start would refuse.
 */
class PostgresComponent implements Component {
  readonly name = 'postgres' as const;
  up = false;
  private handle: LocalPostgres | null = null;

  constructor(private readonly databaseUrl: string, private readonly clusterDir: string) {}

  async start(): Promise<void> {
    this.handle = await startEmbeddedPostgres({ databaseUrl: this.databaseUrl, clusterDir: this.clusterDir, persistent: true, log: () => undefined });
    this.up = true;
  }

  kill(): void {
    this.up = false;
    void readFile(path.join(this.clusterDir, 'postmaster.pid'), 'utf8').then((text) => {
      const pid = Number(text.split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGQUIT');
    }, () => undefined);
  }

  /** Waits for the crashed server to be gone before the next start (its pid file would refuse the start). */
  async waitGone(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const text = await readFile(path.join(this.clusterDir, 'postmaster.pid'), 'utf8').catch(() => '');
      const pid = Number(text.split('\n')[0]);
      if (!pid || !alive(pid)) return;
      await sleep(100);
    }
  }

  async stop(): Promise<void> {
    this.up = false;
    await this.handle?.stop().catch(() => undefined);
  }
}

export interface ClusterOptions {
  databaseUrl: string;
  temporalAddress: string;
  temporalDataDir: string;
  dataDir: string;
  smtpUrl: string;
  apiPort: number;
  taskQueue: string;
  workflowBundlePath: string;
  /** a production build (scripts/build.ts) to run the worker and the API from; default: their sources through tsx */
  distDir?: string;
  /** a PostgreSQL of the run's own to crash: the cluster folder, serving `databaseUrl`'s port */
  postgresClusterDir?: string;
  /** settings of the worker and the API beside the cluster's own (a test's smaller batches, say) */
  env?: NodeJS.ProcessEnv;
}

export function createCluster(options: ClusterOptions) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: options.databaseUrl,
    TEMPORAL_ADDRESS: options.temporalAddress,
    TEMPORAL_TASK_QUEUE: options.taskQueue,
    SMTP_URL: options.smtpUrl,
    DATA_DIR: options.dataDir,
    HOST: '127.0.0.1',
    PORT: String(options.apiPort),
    WORKFLOW_BUNDLE_PATH: options.workflowBundlePath,
    // answer 503 sooner than a person would wait, so the client's repeated clicks exercise the de-duplication
    WORKFLOW_ANSWER_TIMEOUT_MS: '8000',
    // one requester files every request of the run: the per-user quotas (25 open drafts) would refuse the 26th
    OPEN_DRAFTS_QUOTA: '100000', UPLOAD_MB_PER_DAY_QUOTA: '100000',
    LOG_LEVEL: 'error',
    ...options.env,
  };
  const baseUrl = `http://127.0.0.1:${options.apiPort}`;
  const apiReady = async () => {
    try {
      return (await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(1000) })).ok;
    } catch {
      return false;
    }
  };
  const temporal = new TemporalComponent(options.temporalAddress, options.temporalDataDir);
  const entry = (built: string, source: string) => (options.distDir ? path.join(options.distDir, `${built}.js`) : source);
  const worker = new NodeComponent('worker', entry('worker', 'worker/worker.ts'), env, async (out) => out.some((l) => l.includes('worker polling')));
  const api = new NodeComponent('api', entry('server', 'api/server.ts'), env, apiReady);
  const postgres = options.postgresClusterDir ? new PostgresComponent(options.databaseUrl, options.postgresClusterDir) : null;
  const components = { temporal, worker, api, ...(postgres ? { postgres } : {}) } as Record<Target, Component>;

  /** Starts a component, again and again while it dies starting (its dependency may be down too). */
  async function bringUp(target: Target): Promise<number> {
    const started = Date.now();
    for (;;) {
      try {
        if (target === 'postgres') await postgres!.waitGone();
        if (target !== 'temporal' && target !== 'postgres') {
          const { host, port } = parseAddress(options.temporalAddress);
          while (!(await isPortOpen(host, port, 300))) await sleep(200);
        }
        await components[target].start();
        return Date.now() - started;
      } catch {
        await sleep(500);
      }
    }
  }

  return {
    baseUrl,
    temporalAddress: options.temporalAddress,
    components,
    bringUp,
    async startAll() {
      if (postgres && !postgres.up) await bringUp('postgres');
      await bringUp('temporal');
      await Promise.all([bringUp('worker'), bringUp('api')]);
    },
    async stopAll() {
      await Promise.all([api.stop(), worker.stop()]);
      await temporal.stop();
      await postgres?.stop();
    },
  };
}
export type Cluster = ReturnType<typeof createCluster>;
