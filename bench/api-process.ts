/**
 * The API as its own process, as production runs it: the compiled bundle (`npm run build`'s esbuild step, into
 * dist-bench-<pid>/, no type-check) on plain Node with the production node flags and environment of config/api-process.ts,
 * not tsx (whose transpiled sources and source maps the production image never holds). A probe is preloaded
 * (bench/memory/api-probe.ts, compiled beside it) that answers the bench over the IPC channel: the SQL the API sent,
 * its live heap, where its memory peaked. Its peak RSS is also read from the kernel (VmHWM).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHmac } from 'node:crypto';
import { JWT_ALGORITHM, JWT_AUDIENCE, JWT_ISSUER } from '../api/plugins/auth';
import { API_NODE_FLAGS, API_PROCESS_ENV } from '../config/api-process';
import { DEVELOPMENT_JWT_SECRET } from '../config/app-config';
import { buildProduction, bundleModule, stopBundler } from '../scripts/build';
import { freePort } from '../devtools/temporal/dev-server';
import { hwmOf } from './memory/peak-sampler';
import { rssOf } from './process-profile';

const root = fileURLToPath(new URL('..', import.meta.url));
/** One build per bench run (two benches at once must not rebuild under each other), removed when the run ends. */
const BENCH_DIST_NAME = `dist-bench-${process.pid}`;
const BENCH_DIST = path.join(root, BENCH_DIST_NAME);
/**
 * BENCH_SERVER_BUILD: a production build already made (`npm run build`'s output folder, one level below the root) whose
 * server.js the bench runs instead of building its own; only the probe is bundled. The suite's smoke runs of the
 * benches pass the run's build (tests/setup/global-setup.ts).
 */
const SERVER_BUILD = process.env.BENCH_SERVER_BUILD ? path.resolve(process.env.BENCH_SERVER_BUILD) : null;
const SERVER_DIST = SERVER_BUILD ?? BENCH_DIST;

export interface ApiProcess {
  pid: number;
  url: string;
  /** a message to the probe, and its answer */
  ask<T = Record<string, unknown>>(type: string): Promise<T>;
  /** a session token the API accepts for this user (signed with its secret, as its login signs them) */
  token(user: { id: number; sessionVersion: number }): string;
  rssBytes(): number;
  /** the kernel's high-water mark of its RSS since it started */
  hwmBytes(): number;
  stop(): Promise<void>;
}

/** A session token as the API's login signs it (api/plugins/auth.ts: HS256, its issuer and audience), for a day. */
function sessionToken(secret: string, user: { id: number; sessionVersion: number }): string {
  if (JWT_ALGORITHM !== 'HS256') throw new Error(`the bench signs HS256 tokens; the API now uses ${JWT_ALGORITHM}`);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: String(user.id), sv: user.sessionVersion, iat: now, exp: now + 86_400, iss: JWT_ISSUER, aud: JWT_AUDIENCE })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

let built: Promise<void> | null = null;

/** dist-bench-<pid>/server.js (unless BENCH_SERVER_BUILD names one) and the probe, once per bench run. */
function buildOnce(say: (line: string) => void): Promise<void> {
  built ??= (async () => {
    process.once('exit', () => fs.rmSync(BENCH_DIST, { recursive: true, force: true }));
    if (SERVER_BUILD) say(`[build] the server of ${path.relative(root, SERVER_BUILD)}/ (BENCH_SERVER_BUILD)`);
    else await buildProduction({ outDir: BENCH_DIST_NAME, typecheck: false, workflowBundle: false, log: (line) => say(`[build] ${line}`) });
    await bundleModule(path.join(root, 'bench', 'memory', 'api-probe.ts'), path.join(BENCH_DIST, 'api-probe.js'));
    await stopBundler();
  })();
  return built;
}

/**
 * `nodeFlags`: the production flags by default; BENCH_API_NODE_FLAGS replaces them (e.g. `--max-semi-space-size=2`),
 * `none` runs Node's defaults. `extraFlags` come on top (`--cpu-prof`).
 */
export async function startApiProcess(env: NodeJS.ProcessEnv, say: (line: string) => void, extraFlags: string[] = []): Promise<ApiProcess> {
  await buildOnce(say);
  const override = process.env.BENCH_API_NODE_FLAGS;
  const nodeFlags = override === undefined ? API_NODE_FLAGS : override === 'none' ? [] : override.split(' ').filter(Boolean);
  const port = await freePort();
  const jwtSecret = env.JWT_SECRET ?? DEVELOPMENT_JWT_SECRET;
  const childEnv: NodeJS.ProcessEnv = { ...env, ...API_PROCESS_ENV, JWT_SECRET: jwtSecret, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: env.LOG_LEVEL ?? 'warn' };
  delete childEnv.NODE_OPTIONS; // plain Node, as in the image: no tsx loader
  const child = fork(path.join(SERVER_DIST, 'server.js'), [], {
    cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    execArgv: [...nodeFlags, '--enable-source-maps', '--expose-gc', '--import', path.join(BENCH_DIST, 'api-probe.js'), ...extraFlags],
  });
  say(`API process ${child.pid}: node ${nodeFlags.join(' ') || '(no flags)'} ${path.relative(root, SERVER_DIST)}/server.js`
    + `${Object.keys(API_PROCESS_ENV).length ? ` with ${Object.entries(API_PROCESS_ENV).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}`);
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) if (/"level":(50|60)/.test(line)) say(`[api] ${line.slice(0, 400)}`);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // Minutes, not seconds: on a 2-core machine shared with test runs the start alone can take a minute.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode} before it answered`);
    try {
      if ((await fetch(`${url}/api/v1/health/ready`, { signal: AbortSignal.timeout(10_000) })).ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the API did not become ready within 180 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  let asked = 0;
  const answers = new Map<number, (message: Record<string, unknown>) => void>();
  child.on('message', (message: { id: number }) => { answers.get(message.id)?.(message); answers.delete(message.id); });
  return {
    pid: child.pid!,
    url,
    ask<T>(type: string) {
      const id = ++asked;
      return new Promise<T>((resolve, reject) => {
        answers.set(id, (answer) => resolve(answer as T));
        void exited.then((code) => { if (answers.delete(id)) reject(new Error(`the API exited with ${code} before answering`)); });
        child.send({ id, type });
      });
    },
    token: (user) => sessionToken(jwtSecret, user),
    rssBytes: () => rssOf(child.pid!),
    hwmBytes: () => hwmOf(child.pid!),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 15_000))]);
      if (!stopped) child.kill('SIGKILL');
    },
  };
}
