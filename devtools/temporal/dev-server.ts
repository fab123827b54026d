/**
 * Starts (or reuses) a Temporal dev server (`temporal server start-dev`) for `npm start` and the tests.
 * With `dataDir` the state lives in `<dataDir>/temporal.sqlite` and survives restarts; without it, it is in memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { REQUEST_SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';
import { ensureTemporalCli, type Log } from './temporal-cli';

/**
 * The search attributes the workflows use (defined once in workflows/search-attributes.ts), as the CLI names their
 * types: INT → Int, KEYWORD → Keyword. Never call one `Status`: it clashes with the Web UI.
 */
const cliType = (type: string) => type.split('_').map((w) => w[0] + w.slice(1).toLowerCase()).join('');
export const SEARCH_ATTRIBUTES: Record<string, string> = Object.fromEntries(
  REQUEST_SEARCH_ATTRIBUTE_KEYS.map((key) => [key.name, cliType(key.type)]),
);

/** temporal.api.enums.v1.IndexedValueType values (kept numeric so @temporalio/proto need not be a direct dependency). */
const INDEXED_VALUE_TYPE: Record<string, number> = { Text: 1, Keyword: 2, Int: 3, Double: 4, Bool: 5, Datetime: 6, KeywordList: 7 };

/**
 * Settings that fit a single-node dev server (bench/README.md), each one a production cluster may set too:
 * - eager activities: a workflow task that schedules an activity on its own task queue gets the activity task back
 *   in the same answer when the worker has a free slot (the SDK asks for it), instead of a trip through matching;
 * - one partition per task queue: the default four exist to spread a busy queue over matching hosts; on one node
 *   they only make a poll wait on an empty partition while a task sits in another (tasks are forwarded between them).
 *   A server with a history on disk (`npm start`) writes to one partition but keeps reading four, so tasks an
 *   earlier start left in the other partitions are still delivered.
 */
function devServerSpeedFlags(persistent: boolean): string[] {
  return [
    'system.enableActivityEagerExecution=true',
    'matching.numTaskqueueWritePartitions=1',
    ...(persistent ? [] : ['matching.numTaskqueueReadPartitions=1']),
  ];
}

interface TemporalServerOptions {
  /** host:port of the frontend, e.g. 127.0.0.1:7233. */
  address: string;
  /** Directory for temporal.sqlite; omit for an in-memory server (tests). */
  dataDir?: string;
  /** Web UI port; omit or 0 for a headless server. */
  uiPort?: number;
  namespace?: string;
  log?: Log;
  /** Milliseconds to wait for the frontend (default 60 000). */
  timeoutMs?: number;
  /**
   * Start the server in its own process group so a terminal Ctrl-C reaches only our process, which then stops
   * things in order (start-portal). Tests leave it attached so it dies with them.
   */
  detached?: boolean;
  /** More `--dynamic-config-value KEY=VALUE` settings (a recording lowers the continue-as-new threshold with one). */
  dynamicConfig?: string[];
}

export interface TemporalServerHandle {
  started: boolean;
  address: string;
  uiUrl: string | null;
  /** The spawned child, when started. */
  process?: ChildProcess;
  stop(): Promise<void>;
}

export function parseAddress(address: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address.trim());
  if (!match) throw new Error(`Invalid Temporal address "${address}" (expected host:port)`);
  return { host: match[1], port: Number(match[2]) };
}

/** True when something accepts a TCP connection on host:port. */
export function isPortOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (open: boolean) => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

// The port helpers live in ./ports (the production worker needs them without this module); re-exported for callers.
export { freePort, freePortInRange } from '../../temporal/ports';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One attempt: connect, ask for system info and the namespace. Throws when not ready. */
async function probe(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: 2000 });
  try {
    await connection.workflowService.getSystemInfo({});
    await connection.workflowService.describeNamespace({ namespace });
  } finally {
    await connection.close().catch(() => {});
  }
}

/** Registers the portal's search attributes on a server we did not start; existing ones are left alone. */
export async function ensureSearchAttributes(address: string, namespace = 'default', log: Log = () => {}): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: 5000 });
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const known = { ...(existing.customAttributes ?? {}), ...(existing.systemAttributes ?? {}) };
    const missing = Object.entries(SEARCH_ATTRIBUTES).filter(([name]) => !(name in known));
    if (missing.length === 0) return;
    try {
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, INDEXED_VALUE_TYPE[type]])),
      });
      log(`registered search attributes: ${missing.map(([name, type]) => `${name}=${type}`).join(', ')}`);
    } catch (error) {
      if (!/already exists/i.test((error as Error).message)) throw error;
    }
  } finally {
    await connection.close().catch(() => {});
  }
}

/** Sends SIGTERM, then SIGKILL after `graceMs`; resolves when the child has exited. */
export function killChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try { child.kill('SIGKILL'); } catch { /* already gone */ }
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try { child.kill('SIGTERM'); } catch { clearTimeout(timer); resolve(); }
  });
}

export async function ensureTemporalServer(options: TemporalServerOptions): Promise<TemporalServerHandle> {
  const { address, dataDir, uiPort, namespace = 'default', log = () => {}, timeoutMs = 60_000, detached = false, dynamicConfig = [] } = options;
  const { host, port } = parseAddress(address);

  if (await isPortOpen(host, port)) {
    log(`Temporal: reusing the server already listening on ${address}`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await probe(address, namespace);
        break;
      } catch (error) {
        if (Date.now() > deadline) {
          throw new Error(`Something listens on ${address} but it does not answer as a Temporal frontend: ${(error as Error).message}`, { cause: error });
        }
        await sleep(500);
      }
    }
    await ensureSearchAttributes(address, namespace, log);
    return { started: false, address, uiUrl: null, stop: async () => {} };
  }

  const cli = await ensureTemporalCli(log);
  const args = ['server', 'start-dev', '--ip', host, '--port', String(port), '--log-level', 'warn'];
  if (namespace !== 'default') args.push('--namespace', namespace);
  if (uiPort) args.push('--ui-port', String(uiPort));
  else args.push('--headless');
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    args.push('--db-filename', path.join(dataDir, 'temporal.sqlite'));
  }
  args.push(
    '--dynamic-config-value', 'frontend.enableExecuteMultiOperation=true',
    '--dynamic-config-value', 'frontend.enableUpdateWorkflowExecution=true',
    ...[...devServerSpeedFlags(!!dataDir), ...dynamicConfig].flatMap((value) => ['--dynamic-config-value', value]),
  );
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=${type}`);

  const started = Date.now();
  log(`Temporal: starting dev server on ${address}${dataDir ? ` (data in ${dataDir})` : ' (in memory)'}…`);
  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'], detached });
  let tail: string[] = [];
  let exited: string | null = null;
  let stopping = false;
  const forward = (chunk: Buffer) => {
    if (stopping) return; // shutdown chatter (poll failures, dial errors) helps nobody
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      tail = [...tail.slice(-19), line];
      log(`[temporal] ${line}`);
    }
  };
  child.stdout!.on('data', forward);
  child.stderr!.on('data', forward);
  child.on('error', (error) => { exited = `could not start ${cli}: ${error.message}`; });
  child.on('exit', (code, signal) => { exited ??= `exited with ${signal ?? `code ${code}`}`; });

  const stop = async () => {
    stopping = true;
    await killChild(child);
  };

  const deadline = started + timeoutMs;
  let lastError = '';
  for (;;) {
    if (exited) {
      throw new Error(`The Temporal dev server ${exited} before it answered.\n${tail.join('\n')}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The Temporal dev server did not answer on ${address} within ${Math.round(timeoutMs / 1000)} s` +
        `${lastError ? ` (last error: ${lastError})` : ''}.\n${tail.join('\n')}`,
      );
    }
    if (await isPortOpen(host, port, 500)) {
      try {
        await probe(address, namespace);
        break;
      } catch (error) {
        lastError = (error as Error).message;
      }
    }
    await sleep(250);
  }
  log(`Temporal: dev server ready on ${address} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    started: true,
    address,
    uiUrl: uiPort ? `http://${host}:${uiPort}` : null,
    process: child,
    stop,
  };
}
