/** The security log and the people directory by role, against real PostgreSQL. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsCsv } from '../../bench/generate-cs-stars';
import { PasswordResetSchema } from '../../db/entities';
import { resetLinkToken } from '../../services/accounts/password-reset-secret';
import { DEV_ADMIN } from '../../db/seed-data';
import { call, createExternalUser, login, loginAdmin, loginEmployee, loginRequester, uploadClaimsCsv, type Session } from '../support/api-helpers';
import { ownDatabase } from '../support/own-database';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let database: Awaited<ReturnType<typeof ownDatabase>>;
beforeAll(async () => {
  // Its own database: other files (the access matrix, the fuzz test) write refusals to the shared log in the same
  // minutes, which would merge with or crowd out this file's lines.
  database = await ownDatabase('seclog');
  h = await startHarness({ worker: false, databaseUrl: database.url });
  admin = await loginAdmin(h);
});
afterAll(async () => {
  await h?.stop();
  await database?.drop();
});

const stamp = Date.now();
type Entry = { id: number; at: string; kind: string; kindLabel: string; userId: number | null; userName: string | null; email: string | null; ip: string | null; detail: Record<string, unknown> };
const log = async (query: string) => {
  const res = await call(h, admin, 'GET', `/api/v1/security-log?${query}`);
  expect(res.status).toBe(200);
  return res.body as { total: number; limit: number; skip: number; data: Entry[] };
};

describe('what is logged', () => {
  it('admin-list changes, with the address changed and the acting administrator', async () => {
    const email = `logged-admin-${stamp}@example.org`;
    const created = await call(h, admin, 'POST', '/api/v1/admins', { firstName: 'Lo', lastName: 'Gged', email });
    await call(h, admin, 'PATCH', `/api/v1/admins/${created.body.id}`, { lastName: 'Renamed' });
    await call(h, admin, 'DELETE', `/api/v1/admins/${created.body.id}`);
    const page = await log(`email=${encodeURIComponent(email)}`);
    expect(page.data.map((e) => e.kind)).toEqual(['adminRemoved', 'adminChanged', 'adminAdded']);
    expect(page.data[2]).toMatchObject({ kindLabel: 'Administrator added', userId: admin.user.id, email, ip: '127.0.0.1' });
    expect(page.data[2].userName).toBeTruthy();
  });

  it('password reset requested, password reset and password changed', async () => {
    const email = `pw-${stamp}@clinic.example`;
    await createExternalUser(h, email, 'First-Pass1');
    const me = await login(h, email, 'First-Pass1');
    expect((await call(h, me, 'PATCH', `/api/v1/users/${me.user.id}/password`, { currentPassword: 'First-Pass1', password: 'Second-Pass2', confirmPassword: 'Second-Pass2' })).status).toBe(200);
    await call(h, null, 'POST', '/api/v1/password-reset', { email });
    // The link the email would carry (the email itself is the account-email workflow's business).
    const reset = await h.orm.em.fork().findOneOrFail(PasswordResetSchema, { userId: me.user.id });
    const token = resetLinkToken(h.config.jwtSecret, reset.id);
    expect((await call(h, null, 'PATCH', `/api/v1/password-reset/${token}`, { password: 'Third-Pass3', confirmPassword: 'Third-Pass3' })).status).toBe(200);
    const page = await log(`email=${encodeURIComponent(email)}`);
    const kinds = page.data.map((e) => e.kind);
    expect(kinds).toContain('passwordChanged');
    expect(kinds).toContain('passwordResetRequested');
    expect(page.data.find((e) => e.kind === 'passwordReset')).toMatchObject({ userId: me.user.id, email, ip: '127.0.0.1' });
    expect(page.data.find((e) => e.kind === 'passwordChanged')).toMatchObject({ userId: me.user.id, email, ip: '127.0.0.1' });
  });

  it('template edits, exports started and CS-STARS uploads', async () => {
    const [template] = (await call(h, admin, 'GET', '/api/v1/email-templates')).body.data as { id: number; subject: string; body: string }[];
    expect((await call(h, admin, 'PATCH', `/api/v1/email-templates/${template.id}`, { subject: template.subject, body: template.body })).status).toBe(200);
    expect((await call(h, admin, 'POST', '/api/v1/export-requests', { filename: `coi_export_${stamp}` })).status).toBe(201);
    expect((await uploadClaimsCsv(h, admin, claimsCsv(3, 11))).status).toBe(201);
    for (const [kind, detail] of [['templateEdited', { templateId: template.id }], ['exportStarted', { filename: `coi_export_${stamp}` }], ['csStarsUploaded', { rows: 3 }]] as const) {
      const page = await log(`kind=${kind}&userId=${admin.user.id}`);
      expect(page.data[0]).toMatchObject({ kind, userId: admin.user.id, email: DEV_ADMIN.email, detail });
    }
  });

  it('refusals of calls with a token: one line per caller, route and minute, repeats counted', async () => {
    const requester = await loginRequester(h);
    for (let i = 0; i < 5; i += 1) expect((await call(h, requester, 'GET', '/api/v1/security-log')).status).toBe(403);
    expect((await call(h, { token: 'forged', user: {} }, 'GET', '/api/v1/admins')).status).toBe(401);
    expect((await call(h, null, 'GET', '/api/v1/admins')).status).toBe(401); // no token: not "authenticated-looking"
    // The shared test database may hold this requester's earlier refusals on other routes: only this route counts,
    // and the five calls may straddle a minute (then two lines).
    const mine = (await log(`kind=accessRefused&userId=${requester.user.id}&$limit=200`)).data
      .filter((e) => e.detail.route === '/api/v1/security-log');
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine.length).toBeLessThanOrEqual(2);
    expect(mine.reduce((n, e) => n + Number(e.detail.repeats), 0)).toBe(5);
    expect(mine[0]).toMatchObject({ ip: '127.0.0.1', detail: { method: 'GET', route: '/api/v1/security-log', status: 403 } });
    const anonymous = (await log('kind=accessRefused')).data.filter((e) => e.userId === null && e.detail.route === '/api/v1/admins');
    expect(anonymous).toHaveLength(1);
    expect(anonymous[0].detail).toMatchObject({ status: 401, repeats: 1 });
  });
});

describe('GET /api/v1/security-log', () => {
  it('pages newest first, counts in the database, filters by kind and office days, and refuses bad input', async () => {
    const all = await log('$limit=2');
    expect(all.limit).toBe(2);
    expect(all.data).toHaveLength(2);
    expect(all.total).toBeGreaterThan(5);
    expect(all.data[0].at >= all.data[1].at).toBe(true);
    const second = await log('$limit=2&$skip=2');
    expect(second.skip).toBe(2);
    expect(second.data[0].id).not.toBe(all.data[0].id);
    expect((await log('kind=adminAdded')).data.every((e) => e.kind === 'adminAdded')).toBe(true);
    expect((await log('from=2001-01-01&to=2001-01-31')).total).toBe(0);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
    expect((await log(`from=${today}&to=${today}`)).total).toBe(all.total);
    expect((await call(h, admin, 'GET', '/api/v1/security-log?kind=noSuchKind')).status).toBe(400);
    expect((await call(h, admin, 'GET', '/api/v1/security-log?$limit=201')).status).toBe(400);
  });

  it('is for administrators only', async () => {
    expect((await call(h, await loginEmployee(h), 'GET', '/api/v1/security-log')).status).toBe(403);
    expect((await call(h, null, 'GET', '/api/v1/security-log')).status).toBe(401);
  });
});

describe('people directory by role', () => {
  it('internal requesters see names, email, title and work phone; administrators everything; external users nothing', async () => {
    const employee = await loginEmployee(h);
    const seen = await call(h, employee, 'GET', '/api/v1/people?employeeId=400100');
    expect(Object.keys(seen.body.data[0]).sort()).toEqual(['email', 'employeeId', 'firstName', 'id', 'lastName', 'middleInitial', 'title', 'workPhone']);
    const full = await call(h, admin, 'GET', '/api/v1/people?employeeId=400100');
    expect(full.body.data[0]).toHaveProperty('birthDate');
    expect(full.body.data[0]).toMatchObject({ employmentStatus: expect.any(String), personType: 'Employee' });
    expect(full.body.data[0]).toHaveProperty('terminationDate');
    expect((await call(h, await loginRequester(h), 'GET', '/api/v1/people?employeeId=400100')).status).toBe(403);
  });
});
