/**
 * The admin list from the command line: `npm run admin -- add|remove|list` against the portal's
 * database makes a university member an administrator on their next call, and takes it away the same way.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../db/password-hash';
import { UserSchema } from '../../db/entities';
import { call, login, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const EMAIL = `first.admin.${process.pid}@ohsu.example`;
let h: Harness;
let staff: Session;

/** `admin <args>` as an operator types it; answers its output and exit code. */
async function admin(...args: string[]): Promise<{ out: string; code: number }> {
  try {
    const { stdout, stderr } = await run(path.join(root, 'node_modules/.bin/tsx'), ['scripts/admin.ts', ...args], {
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

describe('npm run admin', () => {
  it('explains itself, and refuses what is not an email address', async () => {
    const help = await admin('--help');
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
