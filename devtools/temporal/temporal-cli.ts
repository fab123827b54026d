/**
 * Finds (or builds once and caches) the Temporal CLI, which is also the Temporal dev server.
 * No npm/Debian package ships it and the SDK's downloader cannot reach the internet here, so it is built from the
 * Go module proxy. v1.5.1 is pinned: later versions carry a `replace` directive and `go install …@version` fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const TEMPORAL_CLI_VERSION = 'v1.5.1';
const MODULE = 'github.com/temporalio/cli/cmd/temporal';

export type Log = (line: string) => void;

/** `$XDG_CACHE_HOME or ~/.cache` + `/coi-portal/temporal-v1.5.1/temporal`. */
function cachedTemporalCliPath(env: NodeJS.ProcessEnv = process.env): string {
  const cacheHome = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'coi-portal', `temporal-${TEMPORAL_CLI_VERSION}`, 'temporal');
}

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `go` on PATH, else the usual tarball location. */
export function findGo(): string | null {
  const probe = spawnSync('go', ['version'], { stdio: 'ignore' });
  if (probe.status === 0) return 'go';
  for (const candidate of ['/usr/local/go/bin/go', path.join(os.homedir(), 'go', 'bin', 'go'), '/usr/lib/go/bin/go']) {
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/**
 * Runs `go install -v <module>` (`path@version`), forwarding its progress lines; resolves with the combined output,
 * rejects on failure to start Go. Retried once with GOSUMDB=off when the checksum database is unreachable.
 */
export async function goInstallWithFallback(go: string, module: string, binDir: string, log: Log): Promise<{ ok: boolean; output: string }> {
  const result = await goInstall(go, module, binDir, {}, log);
  if (result.ok || !/sum\.golang\.org|checksum database|GOSUMDB|verifying .*module/i.test(result.output)) return result;
  log('The Go checksum database is unreachable; retrying with GOSUMDB=off (modules still come from the proxy)…');
  return goInstall(go, module, binDir, { GOSUMDB: 'off' }, log);
}

function goInstall(go: string, module: string, binDir: string, extraEnv: Record<string, string>, log: Log): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(go, ['install', '-v', module], {
      env: { ...process.env, GOBIN: binDir, GOFLAGS: '-mod=mod', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let lines = 0;
    const started = Date.now();
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      if (output.length > 200_000) output = output.slice(-100_000);
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        lines += 1;
        const seconds = Math.round((Date.now() - started) / 1000);
        log(`  go [${seconds}s #${lines}] ${line.trim()}`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });
}

/**
 * Returns the path of a usable `temporal` binary: `TEMPORAL_CLI` if set, else the cached build, building it with
 * `go install` (a few minutes, progress streamed to `log`) when missing.
 */
export async function ensureTemporalCli(log: Log = (line) => console.log(line)): Promise<string> {
  const fromEnv = process.env.TEMPORAL_CLI;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`TEMPORAL_CLI=${fromEnv} is not an executable file`);
    return fromEnv;
  }
  const target = cachedTemporalCliPath();
  if (isExecutable(target)) return target;

  const go = findGo();
  if (!go) {
    throw new Error(
      `The Temporal CLI (dev server) is not built yet and Go is not installed.\n` +
      `Install Go >= 1.23 (e.g. apt-get install -y golang-go, or the tarball from https://go.dev/dl into /usr/local/go),\n` +
      `or build it elsewhere: GOBIN=${path.dirname(target)} go install ${MODULE}@${TEMPORAL_CLI_VERSION}\n` +
      `or point TEMPORAL_CLI at an existing temporal binary, or TEMPORAL_ADDRESS at a running server.`,
    );
  }

  const binDir = path.dirname(target);
  fs.mkdirSync(binDir, { recursive: true });
  const started = Date.now();
  log(`Building the Temporal CLI ${TEMPORAL_CLI_VERSION} into ${binDir} (one time, takes a few minutes)…`);
  const result = await goInstallWithFallback(go, `${MODULE}@${TEMPORAL_CLI_VERSION}`, binDir, log);
  if (!result.ok || !isExecutable(target)) {
    const tail = result.output.trim().split('\n').slice(-15).join('\n');
    throw new Error(`Building the Temporal CLI failed:\n${tail}`);
  }
  log(`Temporal CLI built in ${Math.round((Date.now() - started) / 1000)} s: ${target}`);
  return target;
}
