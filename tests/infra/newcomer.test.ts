/**
 * A newcomer's path: `npm start` on a machine where no PostgreSQL answers brings the whole portal up on
 * an embedded PostgreSQL with its cluster under DATA_DIR/postgres, keeps it between starts, and stops it with
 * everything else. Every port is a free one, so the test runs beside a developer's own `npm start`.
 * Before that, the first `npm start` installs the dependencies with the machine's npm and Node: its screen shows
 * the progress lines and npm's errors, not a warning per dependency that asks for a newer Node (EBADENGINE).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { DEV_ADMIN } from '../../db/seed-data';
import { postgresAnswers } from '../../devtools/postgres/embedded-postgres';
import { freePortInRange } from '../../devtools/temporal/dev-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coi-newcomer-'));
fs.chmodSync(dataDir, 0o755); // as root the cluster runs as the postgres user, who must reach it (like ./data)
let running: ChildProcess | null = null;
afterAll(() => {
  if (running?.pid && running.exitCode === null) running.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Eight distinct free ports, below the kernel's range for outgoing connections (freePortInRange): they are bound
 * seconds later (after the database is made), and a port the kernel handed out meanwhile to some connection of the
 * run's other files would be taken.
 */
async function ports() {
  const picked: number[] = [];
  while (picked.length < 8) {
    const port = await freePortInRange();
    if (!picked.includes(port)) picked.push(port);
  }
  const [pg, api, temporal, temporalUi, smtp, outbox, idp, inbound] = picked;
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

/**
 * scripts/bootstrap.sh in a project of its own, as on a bare machine: no node_modules, the machine's npm and Node
 * (the repository's node_modules/.bin left off PATH), and dependencies installed from folders beside it (no network):
 * one that asks for a newer Node than any machine has, as ours ask for more than the machine's Node 20, and a stand-in
 * for the npm package `node`. Answers what reached the newcomer's screen (stdout and stderr) and the exit code.
 */
function bootstrapOnABareMachine(projectPackageJson: string): { screen: string; status: number | null } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coi-bootstrap-'));
  try {
    const write = (file: string, text: string, mode = 0o644) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text, { mode });
    };
    write('future-dep/package.json', JSON.stringify({ name: 'future-dep', version: '1.0.0', engines: { node: '>=99' } }));
    write('node-package/package.json', JSON.stringify({ name: 'node', version: '24.0.0', bin: { node: 'bin/node' }, engines: { node: '>=99' } }));
    write('node-package/bin/node', '#!/bin/sh\n[ "$1" = "--version" ] && echo v24.0.0\nexit 0\n', 0o755);
    write('project/scripts/bootstrap.sh', fs.readFileSync(path.join(root, 'scripts/bootstrap.sh'), 'utf8'));
    write('project/package.json', projectPackageJson);
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: (process.env.PATH ?? '').split(':').filter((p) => !p.includes('node_modules')).join(':') };
    for (const name of Object.keys(env)) if (/^npm_/i.test(name) || name === 'CI' || name === 'TEMPORAL_CLI') delete env[name];
    // What the portal would need that this machine has: the letters' Chromium found, the Temporal CLI step answered
    // by the stand-in Node.
    Object.assign(env, { CHROMIUM_PATH: '/bin/sh', npm_config_update_notifier: 'false', npm_config_cache: path.join(dir, 'npm-cache'), FORCE_COLOR: '0' });
    const run = spawnSync('sh', ['scripts/bootstrap.sh', 'portal'], { cwd: path.join(dir, 'project'), env, encoding: 'utf8', timeout: 120_000 });
    return { screen: `${run.stdout}${run.stderr}`, status: run.status };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

it('the first npm start installs with the machine\'s npm: progress and errors on screen, no EBADENGINE warnings', () => {
  const project = {
    name: 'bare-machine', version: '1.0.0', private: true, engines: { node: '>=24' },
    scripts: { portal: 'echo the portal is running' },
    devDependencies: { 'future-dep': 'file:../future-dep', node: 'file:../node-package' },
  };
  const installed = bootstrapOnABareMachine(JSON.stringify(project));
  expect(installed.status, installed.screen).toBe(0);
  expect(installed.screen).toContain('[bootstrap] installing dependencies with npm install (node_modules/.bin/node is missing)');
  expect(installed.screen).toMatch(/added 2 packages/);
  expect(installed.screen).toMatch(/\[bootstrap\] dependencies installed in \d+ s/);
  expect(installed.screen).toContain('the portal is running');
  expect(installed.screen).not.toMatch(/EBADENGINE|Unsupported engine/);

  // A real error still reaches the screen, and stops the start.
  const broken = bootstrapOnABareMachine(`${JSON.stringify(project).slice(0, -1)},`);
  expect(broken.status).not.toBe(0);
  expect(broken.screen).toMatch(/npm error code EJSONPARSE/);
  expect(broken.screen).not.toContain('the portal is running');
}, 240_000);
