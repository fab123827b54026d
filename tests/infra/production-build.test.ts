/**
 * The production build (scripts/build.ts, `npm run build`) runs on plain Node with nothing but production
 * dependencies: every package the bundles load is in package.json "dependencies", and the compiled entries work
 * against the test database and Temporal server with NODE_ENV=production:
 *   node dist/migrate.js  creates, migrates and seeds a new database (no development accounts, no sample policy years)
 *   node dist/server.js   refuses a missing JWT secret, missing office facts, and single sign-on metadata over http or
 *                         without the issuer, naming each; refuses (as the worker does) a database holding sample
 *                         policy years until  node dist/admin.js remove-sample-policy-years  takes them out; then
 *                         answers /api/v1/health; the dev admin
 *                         cannot sign in
 *   node dist/worker.js   loads the prebuilt workflow bundle and polls its task queue
 * The build is the run's own (tests/setup/global-setup.ts: dist-test-run-<pid>/, one level below the root like dist/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeSelfSignedP12 } from '../../activities/pdf/letter-signing-key';
import { dropDatabase } from '../../db/database';
import { DEV_ADMIN, SEED_EMAIL_TEMPLATES, EXTRA_EMAIL_TEMPLATES, seedPolicyYears } from '../../db/seed-data';
import { freePort } from '../../devtools/temporal/dev-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The run's build (tests/setup/global-setup.ts: scripts/build.ts's buildProduction, made once for the tests that start
// dist/ processes). Read only: other files run the same processes from it.
const build = inject('productionBuild');
const outDir = build.outDir;
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

const url = new URL(inject('databaseUrl'));
url.pathname = `/coi_test_${process.pid}_prodbuild`;
const databaseUrl = url.toString();
let dataDir: string;
const running: ChildProcess[] = [];

interface Run { child: ChildProcess; output: () => string; exited: Promise<number | null> }

/** The office's signing certificate, as an operator installs it (LETTER_SIGNING_P12). */
const OFFICE_P12_PASSWORD = randomBytes(12).toString('hex');
const OFFICE_P12 = makeSelfSignedP12('Risk Management Office (test)', OFFICE_P12_PASSWORD);

/** `node <outDir>/<entry>.js [args]` with a production environment: no tsx loader, no NODE_OPTIONS. */
function node(entry: string, env: Record<string, string | undefined>, args: string[] = []): Run {
  const base = { ...process.env };
  delete base.NODE_OPTIONS;
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(outDir, `${entry}.js`), ...args], {
    cwd: root,
    env: {
      ...base,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: `prod-build-${randomBytes(4).toString('hex')}`,
      DATA_DIR: dataDir,
      SMTP_URL: 'smtp://127.0.0.1:1',
      JWT_SECRET: randomBytes(36).toString('base64'),
      PUBLIC_URL: 'https://coi.university.example',
      RISK_MANAGEMENT_PHONE: '503-494-1234',
      RISK_MANAGEMENT_EMAIL: 'riskmanagement@university.example',
      LOG_LEVEL: 'warn',
      LETTER_SIGNING_P12: OFFICE_P12.toString('base64'),
      LETTER_SIGNING_P12_PASSWORD: OFFICE_P12_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, run: Run, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (run.child.exitCode !== null) throw new Error(`${what}: the process exited (${run.child.exitCode}):\n${run.output()}`);
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: timed out. Output:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coi-prod-build-'));
});

afterAll(async () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await dropDatabase(databaseUrl).catch(() => {});
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('production build', () => {
  it('bundles the three entries, the migrations and the workflow bundle', () => {
    expect(build.files).toEqual(expect.arrayContaining([
      'server.js', 'worker.js', 'migrate.js', 'workflow-bundle.js', 'package.json',
      ...fs.readdirSync(path.join(root, 'db', 'migrations')).filter((f) => f.endsWith('.ts')).map((f) => `migrations/${f.replace(/\.ts$/, '.js')}`),
    ]));
  });

  it('keeps the worker\'s packages out of the API: it asks workflows, it never runs them, prints or mails', () => {
    expect(build.externalPackagesOf.server).toContain('@temporalio/client');
    for (const workerOnly of ['@temporalio/worker', 'playwright-core', 'nodemailer']) {
      expect(build.externalPackagesOf.server, `dist/server.js imports ${workerOnly}`).not.toContain(workerOnly);
    }
    expect(build.externalPackagesOf.worker).toEqual(expect.arrayContaining(['@temporalio/worker', 'playwright-core', 'nodemailer']));
  });

  it('loads only production dependencies at run time (never tsx, vite, typescript…)', () => {
    const builtins = new Set(builtinModules);
    const notProduction = build.externalPackages.filter((name) => !(name in pkg.dependencies) && !builtins.has(name));
    expect(notProduction, 'imported by dist/ but not in package.json "dependencies"').toEqual([]);
    for (const tool of ['tsx', 'typescript', 'vite', 'vitest', 'esbuild', 'node', '@vitejs/plugin-react', 'eslint']) {
      expect(pkg.dependencies, `${tool} is a devDependency`).not.toHaveProperty(tool);
    }
    expect(Object.keys(pkg.dependencies).filter((name) => name.startsWith('@types/'))).toEqual([]);
  });

  it('node dist/migrate.js creates, migrates and seeds a database without development accounts', async () => {
    const run = node('migrate', {});
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain('migrations applied: ');
    expect(run.output()).toContain('no development accounts');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const migrations = await client.query('select name from mikro_orm_migrations order by id');
      expect(migrations.rows.map((r) => r.name)).toEqual(
        fs.readdirSync(path.join(root, 'db', 'migrations')).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, '')).sort(),
      );
      expect((await client.query('select count(*)::int as n from users')).rows[0].n).toBe(0);
      expect((await client.query('select count(*)::int as n from admins')).rows[0].n).toBe(0);
      expect((await client.query('select count(*)::int as n from email_templates')).rows[0].n).toBe(SEED_EMAIL_TEMPLATES.length + EXTRA_EMAIL_TEMPLATES.length);
      expect((await client.query('select count(*)::int as n from policies')).rows[0].n, 'no made-up policy years').toBe(0);
      expect(run.output()).toContain('No policy years on record');
    } finally {
      await client.end();
    }
  });

  it('node dist/server.js refuses to start without a JWT secret', async () => {
    const run = node('server', { JWT_SECRET: undefined });
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toMatch(/JWT_SECRET is not set/);
  });

  it('node dist/server.js refuses single sign-on metadata over http, and single sign-on without the issuer, naming the setting', async () => {
    const overHttp = node('server', { SAML_IDP_METADATA_URL: 'http://idp.university.example/metadata', SAML_IDP_ENTITY_ID: 'https://idp.university.example/idp' });
    const noIssuer = node('server', { SAML_IDP_METADATA_URL: 'https://idp.university.example/metadata' });
    expect(await overHttp.exited).not.toBe(0);
    expect(overHttp.output()).toContain('SAML_IDP_METADATA_URL must be an https: address with NODE_ENV=production (got "http://idp.university.example/metadata")');
    expect(await noIssuer.exited).not.toBe(0);
    expect(noIssuer.output()).toContain('SAML_IDP_ENTITY_ID is not set: with NODE_ENV=production single sign-on does not start');
  });

  it('node dist/server.js refuses to start without the office\'s own facts, naming each missing one', async () => {
    const run = node('server', { PUBLIC_URL: undefined, RISK_MANAGEMENT_PHONE: undefined, RISK_MANAGEMENT_EMAIL: '' });
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toContain('without values of its own for these settings: PUBLIC_URL, RISK_MANAGEMENT_PHONE, RISK_MANAGEMENT_EMAIL.');
    for (const name of ['PUBLIC_URL', 'RISK_MANAGEMENT_PHONE', 'RISK_MANAGEMENT_EMAIL']) expect(run.output()).toContain(`  ${name} is not set: `);
  });

  it('node dist/server.js and dist/worker.js refuse a database holding sample policy years; dist/admin.js removes exactly them', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const samples = seedPolicyYears();
      for (const y of samples) {
        await client.query('insert into policies (start_date, end_date, policy_number, limit_claim, annual_aggregate, created_at, updated_at) values ($1, $2, $3, $4, $5, now(), now())',
          [y.startDate, y.endDate, y.policyNumber, y.limitClaim, y.annualAggregate]);
      }
      const range = `${samples[0].policyNumber} … ${samples.at(-1)!.policyNumber}`;
      for (const entry of ['server', 'worker']) {
        const run = node(entry, { HOST: '127.0.0.1', PORT: String(await freePort()), WORKFLOW_BUNDLE_PATH: path.join(outDir, 'workflow-bundle.js') });
        expect(await run.exited, run.output()).toBe(1);
        expect(run.output()).toContain(`Refusing to start with NODE_ENV=production: This database holds ${samples.length} sample policy years from a development seed (${range})`);
        expect(run.output()).toContain('node dist/admin.js remove-sample-policy-years');
        expect(run.output()).not.toMatch(/API listening|worker polling/);
      }
      const remove = node('admin', {}, ['remove-sample-policy-years']);
      expect(await remove.exited, remove.output()).toBe(0);
      expect(remove.output()).toContain(`Removed ${samples.length} sample policy years (${range})`);
      expect((await client.query('select count(*)::int as n from policies')).rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  }, 120_000);

  it('node dist/server.js answers the health check; the development administrator does not exist', async () => {
    const port = await freePort();
    const run = node('server', { HOST: '127.0.0.1', PORT: String(port) });
    const base = `http://127.0.0.1:${port}`;
    const health = await waitFor(async () => {
      const response = await fetch(`${base}/api/v1/health`).catch(() => undefined);
      return response?.status === 200 ? response.json() : undefined;
    }, 'health check', run);
    expect(health).toEqual({ status: 'ok' });
    const signIn = await fetch(`${base}/api/v1/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ strategy: 'local', email: DEV_ADMIN.email, password: DEV_ADMIN.password }),
    });
    expect(signIn.status).toBe(401);
    const page = await fetch(`${base}/`);
    // The UI comes from ui/dist next to dist/ (npm test builds it first).
    if (fs.existsSync(path.join(root, 'ui', 'dist', 'index.html'))) expect(await page.text()).toMatch(/<div id="root">/);
    else expect(page.status).toBe(503);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('node dist/worker.js refuses to start without the office\'s signing certificate, naming the settings', async () => {
    const run = node('worker', { LETTER_SIGNING_P12: undefined, LETTER_SIGNING_P12_PASSWORD: undefined, WORKFLOW_BUNDLE_PATH: path.join(outDir, 'workflow-bundle.js') });
    expect(await run.exited, run.output()).not.toBe(0);
    expect(run.output()).toContain("the worker does not start without the office's signing certificate: LETTER_SIGNING_P12, LETTER_SIGNING_P12_PASSWORD.");
    expect(run.output()).not.toMatch(/worker polling/);
  }, 120_000);

  it('node dist/worker.js polls with the prebuilt workflow bundle', async () => {
    const run = node('worker', { WORKFLOW_BUNDLE_PATH: path.join(outDir, 'workflow-bundle.js') });
    await waitFor(() => (/worker polling task queue/.test(run.output()) ? true : undefined), 'worker start', run);
    // Still running when asked to stop, and stops cleanly: a worker failing after it began to poll would exit by
    // itself, with its failure's code, not 0.
    expect(run.child.exitCode, run.output()).toBeNull();
    run.child.kill('SIGTERM');
    expect(await run.exited, run.output()).toBe(0);
  }, 120_000);
});
