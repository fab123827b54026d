/**
 * `npm run bench:cs-stars-upload [-- --rows 100000]`: the API's resident memory while an administrator uploads a
 * CS-STARS export of <rows> claims over HTTP (issue: the API stays within its memory budget through the largest
 * upload). The API runs alone in a child process (as bench/lists.bench.ts runs it) on the kept database
 * `coi_bench_cs_stars_upload` (CS_STARS_UPLOAD_BENCH_DATABASE_URL to change it); the file (bench/results/cs-stars-<rows>.csv,
 * generated once) is streamed from disk as the multipart body. The child's VmRSS is sampled every 20 ms, and its
 * VmHWM (the kernel's own peak) read at the end.
 *
 * Prints RSS before, peak and growth, the upload's wall time and answer. BENCH_GC=1 lets the API collect its garbage
 * before the upload (what it holds, not what V8 has not yet collected); API_NODE_FLAGS passes V8 flags to the API. Writes bench/results/cs-stars-upload-<timestamp>.json.
 */
import { fork } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { claimLines } from './generate-cs-stars';
import { RESULTS_DIR, runBench, stopLater } from './lifecycle';

const self = fileURLToPath(import.meta.url);
const argValue = (name: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : undefined; };
const ROWS = Number(argValue('rows') ?? 100_000);
const databaseUrl = process.env.CS_STARS_UPLOAD_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/coi_bench_cs_stars_upload';
const log = (line: string) => console.log(`[bench:cs-stars-upload] ${line}`);
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

// ------------------------------------------------------------------ child: the portal's API

async function serve() {
  const { startPortalInProcess } = await import('../devtools/portal-in-process');
  const { signSessionToken } = await import('../api/plugins/auth');
  const { UserSchema } = await import('../db/entities');
  const { DEV_ADMIN } = await import('../db/seed-data');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-cs-stars-upload-bench-'));
  const stop = () => portal.stop().then(() => rm(dataDir, { recursive: true, force: true })).finally(() => process.exit(0));
  const portal = await startPortalInProcess({
    env: { ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: '127.0.0.1:1', DATA_DIR: dataDir, PORT: '0' },
    worker: false, smtpSink: false, listen: true,
  });
  const admin = await portal.orm.em.fork().findOneOrFail(UserSchema, { email: DEV_ADMIN.email });
  // Peaks of what the process holds, sampled here: which part of the RSS grows (heap, buffers outside it).
  const peaks = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    for (const key of Object.keys(peaks) as (keyof typeof peaks)[]) peaks[key] = Math.max(peaks[key], now[key]);
  }, 20);
  sampler.unref();
  process.on('message', (message: { type: string }) => {
    if (message.type === 'peaks') {
      (globalThis as { gc?: () => void }).gc?.();
      process.send!({ peaks, now: process.memoryUsage() });
      for (const key of Object.keys(peaks) as (keyof typeof peaks)[]) peaks[key] = 0;
    }
    if (message.type === 'stop') void stop();
  });
  // The bench that started it is gone (failed, killed): nobody will ask it anything or stop it.
  process.on('disconnect', () => void stop());
  process.send!({ url: portal.baseUrl, token: signSessionToken(portal.app, admin) });
}

// ------------------------------------------------------------------ the driver

async function csvFile(rows: number): Promise<string> {
  const file = path.join(RESULTS_DIR, `cs-stars-${rows}.csv`);
  if (existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  for (const line of claimLines(rows)) {
    if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return file;
}

function upload(url: string, token: string, file: string): Promise<{ status: number; body: string }> {
  const boundary = `----bench${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="limit"\r\n\r\n10\r\n`
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="claims.csv"\r\nContent-Type: text/csv\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/api/v1/cs-stars`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + statSync(file).size + tail.length,
      },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.write(head);
    const body = createReadStream(file);
    body.on('error', reject);
    body.on('end', () => request.end(tail));
    body.pipe(request, { end: false });
  });
}

async function main(): Promise<number> {
  const { prepareDatabase } = await import('../db/prepare-database');
  await prepareDatabase(databaseUrl, () => undefined, { devAccounts: true });
  const file = await csvFile(ROWS);
  log(`${ROWS} rows, ${mib(statSync(file).size)} (${statSync(file).size} bytes): ${file}`);
  // BENCH_GC=1: the API may run a full collection when asked, to tell what it holds from its garbage.
  // API_NODE_FLAGS: V8 flags for the API (e.g. --max-old-space-size=200), to check the upload within a heap cap.
  const flags = [...(process.env.BENCH_GC ? ['--expose-gc'] : []), ...(process.env.API_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [])];
  const child = fork(self, ['--serve'], { execArgv: [...process.execArgv, ...flags], stdio: 'inherit' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  stopLater('stop the API process', async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
    await exited;
  });
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; token: string }));
    child.once('exit', (code) => reject(new Error(`the API exited (${code})`)));
  });
  const pid = child.pid!;
  const ask = () => new Promise<{ peaks: Record<string, number>; now: Record<string, number> }>((resolve) => {
    child.once('message', (m) => resolve(m as never));
    child.send({ type: 'peaks' });
  });
  const idle = await ask();
  log(`idle API: ${Object.entries(idle.now).map(([k, v]) => `${k} ${mib(v)}`).join(', ')}${process.env.BENCH_GC ? ' (after a full collection)' : ''}`);
  const rssBefore = statusField(pid, 'VmRSS');
  let rssPeak = rssBefore;
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, statusField(pid, 'VmRSS')); }, 20);
  const started = performance.now();
  const answer = await upload(url, token, file);
  const ms = performance.now() - started;
  clearInterval(sampler);
  const hwm = statusField(pid, 'VmHWM');
  const rssAfter = statusField(pid, 'VmRSS');
  const inside = await ask();
  const parsed = JSON.parse(answer.body) as Record<string, unknown>;
  const { data: _data, ...result } = parsed;
  log(`answer ${answer.status} in ${(ms / 1000).toFixed(1)} s: ${JSON.stringify(result).slice(0, 300)}`);
  log(`API RSS before ${mib(rssBefore)}, peak sampled ${mib(rssPeak)} (growth ${mib(rssPeak - rssBefore)}), VmHWM ${mib(hwm)}, after ${mib(rssAfter)}`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const report = path.join(RESULTS_DIR, `cs-stars-upload-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(report, JSON.stringify({ rows: ROWS, status: answer.status, ms, rssBefore, rssPeak, hwm, rssAfter, peaks: inside.peaks, result }, null, 2));
  log(`inside the API, peaks during the upload: ${Object.entries(inside.peaks).map(([k, v]) => `${k} ${mib(v)}`).join(', ')}`);
  log(`after it: ${Object.entries(inside.now).map(([k, v]) => `${k} ${mib(v)}`).join(', ')}`);
  log(`wrote ${report}`);
  if (answer.status !== 201) log(`FAILED: the upload answered ${answer.status}`);
  return answer.status === 201 ? 0 : 1;
}

if (process.argv.includes('--serve')) await serve();
else runBench('bench:cs-stars-upload', main);
