/**
 * The admin list from the command line: `node dist/admin.js add|remove|list` (`npm run admin --` in development) against the portal's
 * database makes a university member an administrator on their next call, and takes it away the same way.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashPassword } from '../../services/accounts/password-hash';
import { UserSchema } from '../../db/entities';
import { call, login, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const EMAIL = `first.admin.${process.pid}@ohsu.example`;
let h: Harness;
let staff: Session;

/**
 * `admin <args>` as an operator types it in production (`node dist/admin.js`, from the run's production build); answers
 * its output and exit code. `developmentAdmin` runs the source as `npm run admin --` does (tsx).
 */
async function admin(...args: string[]): Promise<{ out: string; code: number }> {
  return adminWith(process.execPath, ['--enable-source-maps', path.join(inject('productionBuild').outDir, 'admin.js'), ...args]);
}
const developmentAdmin = (...args: string[]) => adminWith(path.join(root, 'node_modules/.bin/tsx'), ['scripts/admin.ts', ...args]);

async function adminWith(command: string, args: string[]): Promise<{ out: string; code: number }> {
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd: root, env: { ...process.env, DATABASE_URL: h.config.databaseUrl },
    });
    return { out: stdout + stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number };
    return { out: `${e.stdout ?? ''}${e.stderr ?? ''}`, code: e.code ?? 1 };
  }
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  // A member of the university as single sign-on creates them: internal, the address proven.
  const em = h.orm.em.fork();
  em.create(UserSchema, {
    email: EMAIL, firstName: 'Pat', lastName: 'Boss', affiliation: 'OHSU', personType: 'Employee', isExternal: false,
    passwordHash: await hashPassword('First-Admin1'), emailConfirmedAt: new Date(),
  });
  await em.flush();
  staff = await login(h, EMAIL, 'First-Admin1');
});
afterAll(async () => { await h?.stop(); });

describe('the admin command', () => {
  it('explains itself, and refuses what is not an email address', async () => {
    const help = await developmentAdmin('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('add <email> --first <first name> --last <last name>');
    const bad = await admin('add', 'not-an-address', '--first', 'A', '--last', 'B');
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('"not-an-address" is not an email address');
  });

  it('makes a signed-in member of the university an administrator on the next call, and takes it away', async () => {
    expect((await call(h, staff, 'GET', '/api/v1/admin-dashboard')).status).toBe(403);
    const added = await admin('add', EMAIL.toUpperCase(), '--first', 'Pat', '--last', 'Boss');
    expect(added.code).toBe(0);
    expect(added.out).toContain(`${EMAIL} is now on the admin list`);
    expect((await call(h, staff, 'GET', '/api/v1/admin-dashboard')).status).toBe(200);
    expect((await admin('add', EMAIL, '--first', 'Pat', '--last', 'Boss')).out).toContain('is still on the admin list');
    expect((await admin('list')).out).toContain(`${EMAIL}\tPat Boss`);
    const removed = await admin('remove', EMAIL);
    expect(removed.out).toContain(`${EMAIL} is off the admin list`);
    expect((await call(h, staff, 'GET', '/api/v1/admin-dashboard')).status).toBe(403);
    const log = await h.orm.em.fork().getConnection().execute(`select kind from security_events where email = ? order by id`, [EMAIL], 'all') as Array<{ kind: string }>;
    expect(log.map((r) => r.kind)).toEqual(expect.arrayContaining(['adminAdded', 'adminRemoved']));
  });
});
