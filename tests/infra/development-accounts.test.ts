/**
 * Development accounts found in a database keep an API off the network (api/server.ts): SEED_DEV_ACCOUNTS=false only
 * stops seeding them, and the rows of an earlier development database would sign in with the README's passwords. The
 * API refuses a non-loopback listen naming them and the command that retires them; once retired, it starts.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER, DEV_REQUESTER } from '../../db/seed-data';
import { login } from '../support/api-helpers';
import { verifyPassword } from '../../services/accounts/password-hash';
import { startHarness, type Harness } from '../support/portal-harness';

const root = path.resolve(import.meta.dirname, '../..');
/** This test's own Node (24), with tsx's loader: what `npm start` runs the API with. */
const node = (script: string) => [process.execPath, ['--import', 'tsx', script]] as const;
let h: Harness;

beforeAll(async () => { h = await startHarness({ worker: false }); });
afterAll(async () => { await h?.stop(); });

/** The API process as an operator starts it: facing the network, no development accounts asked for. */
const networkEnv = () => ({
  ...process.env, HOST: '0.0.0.0', PORT: '0', SEED_DEV_ACCOUNTS: 'false',
  JWT_SECRET: randomBytes(36).toString('base64'), DATABASE_URL: h.config.databaseUrl, TEMPORAL_ADDRESS: inject('temporalAddress'),
  DATA_DIR: h.config.dataDir, METRICS_PORT: '', PUBLIC_URL: 'https://portal.university.test', LOG_LEVEL: 'warn',
});

/** Starts `api/server.ts`; resolves with its output when it exits, or when it says it listens (then stops it). */
function startApi(): Promise<{ listened: boolean; code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const [command, args] = node('api/server.ts');
    const child = spawn(command, args, { cwd: root, env: networkEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let listened = false;
    const read = (chunk: Buffer) => {
      out += chunk;
      if (!listened && /API listening on/.test(out)) {
        listened = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('error', reject);
    child.on('exit', (code) => resolve({ listened, code, out }));
  });
}

describe('development accounts in the database', () => {
  it('keep an API facing the network from starting, named with the command that retires them; retired, it starts', async () => {
    // The harness seeded them (a development database); the production settings ask for none.
    await login(h, DEV_REQUESTER.email, DEV_REQUESTER.password);
    const refused = await startApi();
    expect(refused.listened).toBe(false);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('Refusing to listen on 0.0.0.0');
    for (const email of [DEV_ADMIN.email, DEV_REQUESTER.email, DEV_INTERNAL_REQUESTER.email]) expect(refused.out).toContain(email);
    expect(refused.out).toContain('npm run admin -- retire-dev-accounts');

    const [command, args] = node('scripts/admin.ts');
    const { stdout } = await promisify(execFile)(command, [...args, 'retire-dev-accounts'], { cwd: root, env: { ...process.env, DATABASE_URL: h.config.databaseUrl } });
    expect(stdout).toContain(`Retired the development accounts ${[DEV_ADMIN.email, DEV_INTERNAL_REQUESTER.email, DEV_REQUESTER.email].sort().join(', ')}`);
    await expect(login(h, DEV_REQUESTER.email, DEV_REQUESTER.password)).rejects.toThrow();
    const rows = await h.orm.em.fork().getConnection().execute<Array<{ kind: string }>>(
      `select "kind" from "security_events" where "email" = ? and "kind" = 'userDeactivated'`, [DEV_REQUESTER.email], 'all');
    expect(rows).toHaveLength(1);

    const started = await startApi();
    expect(started.out).not.toContain('Refusing');
    expect(started.listened).toBe(true);
  });
});

describe('the development accounts\' kept hashes', () => {
  it('each verifies its published password (the seed writes them as they are)', async () => {
    for (const account of [DEV_ADMIN, DEV_REQUESTER, DEV_INTERNAL_REQUESTER]) {
      expect(await verifyPassword(account.password, account.passwordHash), account.email).toBe(true);
      expect(await verifyPassword(`${account.password}x`, account.passwordHash), account.email).toBe(false);
    }
  });
});
