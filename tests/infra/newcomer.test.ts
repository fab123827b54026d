/**
 * A newcomer's path: `npm start` on a machine where no PostgreSQL answers brings the whole portal up on
 * an embedded PostgreSQL with its cluster under DATA_DIR/postgres, keeps it between starts, and stops it with
 * everything else. Every port is a free one, so the test runs beside a developer's own `npm start`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { postgresAnswers } from '../../devtools/postgres/embedded-postgres';
import { freePort } from '../../devtools/temporal/dev-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coi-newcomer-'));
fs.chmodSync(dataDir, 0o755); // as root the cluster runs as the postgres user, who must reach it (like ./data)
let running: ChildProcess | null = null;
afterAll(() => {
  if (running?.pid && running.exitCode === null) running.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function ports() {
  const [pg, api, temporal, temporalUi, smtp, outbox, idp, inbound] = await Promise.all(Array.from({ length: 8 }, () => freePort()));
  return { pg, api, temporal, temporalUi, smtp, outbox, idp, inbound };
}

/** `npm run portal` with nothing of the test run's own database, Temporal or data folder in its environment. */
async function startPortal(p: Awaited<ReturnType<typeof ports>>): Promise<{ child: ChildProcess; output: () => string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'DATA_DIR', 'SMTP_URL', 'PUBLIC_URL']) delete env[name];
  Object.assign(env, {
    PGPORT: String(p.pg), PORT: String(p.api), TEMPORAL_ADDRESS: `127.0.0.1:${p.temporal}`, TEMPORAL_UI_URL: `http://127.0.0.1:${p.temporalUi}`,
    SMTP_SINK_PORT: String(p.smtp), OUTBOX_PORT: String(p.outbox), DEV_IDP_PORT: String(p.idp), INBOUND_SMTP_PORT: String(p.inbound), DATA_DIR: dataDir, FORCE_COLOR: '0',
  });
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-portal.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running = child;
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  const deadline = Date.now() + 240_000;
  while (!text.includes('portal is running')) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${text}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up within 240 s:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { child, output: () => text };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  return exited;
}

async function signInAsAdmin(apiPort: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${apiPort}/api/v1/authentication`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ strategy: 'local', email: DEV_ADMIN.email, password: DEV_ADMIN.password }),
  });
  return res.status;
}

it('npm start with no PostgreSQL answering: an embedded one serves the portal, survives a restart, and stops with it', async () => {
  const p = await ports();
  const databaseUrl = `postgres://postgres@127.0.0.1:${p.pg}/coi_portal`;
  expect(await postgresAnswers(databaseUrl, 1000)).toBe(false);

  const first = await startPortal(p);
  expect(first.output()).toMatch(new RegExp(`embedded PostgreSQL 15\\.\\d+ on 127\\.0\\.0\\.1:${p.pg}`));
  expect(first.output()).toContain('embedded PostgreSQL: new cluster');
  expect(fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
  expect(await signInAsAdmin(p.api)).toBe(200);
  expect(await stop(first.child)).toBe(0);
  expect(first.output()).toContain('stopping the embedded PostgreSQL');
  expect(await postgresAnswers(databaseUrl, 1000)).toBe(false);

  // The second start finds its cluster and its data (the sign-in above wrote lastLogin): no new cluster.
  const second = await startPortal(p);
  expect(second.output()).not.toContain('new cluster');
  expect(second.output()).toMatch(/database: .*(up to date|no pending)|database ready/);
  expect(await signInAsAdmin(p.api)).toBe(200);
  expect(await stop(second.child)).toBe(0);
  expect(await postgresAnswers(databaseUrl, 1000)).toBe(false);
}, 600_000);
