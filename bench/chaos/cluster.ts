/**
 * The portal as separate processes the chaos run can kill -9 and bring back: the Temporal dev server (on a SQLite
 * file, so its state survives the kill), the worker and the API (each `node --import tsx <entry>`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTemporalServer, isPortOpen, parseAddress, type TemporalServerHandle } from '../../temporal/dev-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Target = 'worker' | 'api' | 'temporal';

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
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, this.entry)], {
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

export interface ClusterOptions {
  databaseUrl: string;
  temporalAddress: string;
  temporalDataDir: string;
  dataDir: string;
  smtpUrl: string;
  apiPort: number;
  taskQueue: string;
  workflowBundlePath: string;
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
    LOG_LEVEL: 'error',
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
  const worker = new NodeComponent('worker', 'temporal/worker.ts', env, async (out) => out.some((l) => l.includes('worker polling')));
  const api = new NodeComponent('api', 'api/server.ts', env, apiReady);
  const components: Record<Target, Component> = { temporal, worker, api };

  /** Starts a component, again and again while it dies starting (its dependency may be down too). */
  async function bringUp(target: Target): Promise<number> {
    const started = Date.now();
    for (;;) {
      try {
        if (target !== 'temporal') {
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
      await bringUp('temporal');
      await Promise.all([bringUp('worker'), bringUp('api')]);
    },
    async stopAll() {
      await Promise.all([api.stop(), worker.stop()]);
      await temporal.stop();
    },
  };
}
export type Cluster = ReturnType<typeof createCluster>;
