/**
 * Lists at a year's volume: the admin dashboard answers pages and counts computed by the database, the
 * request list filters by the dashboard's request-type label, and both keep the caller's visibility.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_FIELDS, DECIDED_STATUSES, requestTypeLabelOf, REQUEST_TYPE_FILTERS } from '../../domain';
import { call, createExternalUser, login, loginAdmin, loginEmployee, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let owner: Session;
let other: Session;
let admin: Session;

interface Row { id: number; requestType: string; certificateType: string | null; autoType?: string | null; status: string; updatedAt: string; requesterId: number }

const sql = (text: string, params: unknown[] = []) => h.orm.em.fork().getConnection().execute(text, params, 'all');

/** A draft made through the API, then given a type and status directly (the workflow is not under test here). */
async function request(session: Session, kind: { certificateType?: string; autoType?: string | null } | null, status: string): Promise<number> {
  const created = await call(h, session, 'POST', '/api/v1/requests', kind
    ? { requestType: 'certificate', certificateType: kind.certificateType, lastName: 'Lister' }
    : { requestType: 'credentialing', lastName: 'Lister' });
  expect(created.status).toBe(201);
  await sql(`update requests set status = ?, auto_type = ?, submit_date = case when ? = 'Draft' then null else now() end where id = ?`,
    [status, kind?.autoType ?? null, status, created.body.id]);
  return created.body.id;
}

/** Every request, as the administrator's unpaged list says. */
async function allRows(): Promise<Row[]> {
  const res = await call(h, admin, 'GET', '/api/v1/requests?$limit=1000');
  expect(res.status).toBe(200);
  return res.body.data;
}

const countsOf = (rows: Row[]) => {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(`${r.requestType}|${r.status}`, (counts.get(`${r.requestType}|${r.status}`) ?? 0) + 1);
  return [...counts].map(([key, count]) => ({ requestType: key.split('|')[0], status: key.split('|')[1], count }))
    .sort((a, b) => `${a.requestType}|${a.status}`.localeCompare(`${b.requestType}|${b.status}`));
};
const sorted = (counts: { requestType: string; status: string; count: number }[]) =>
  [...counts].sort((a, b) => `${a.requestType}|${a.status}`.localeCompare(`${b.requestType}|${b.status}`));
const inQueue = (r: Row) => !(DECIDED_STATUSES as readonly string[]).includes(r.status);

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await loginRequester(h);
  await createExternalUser(h, 'lists-other@clinic.example', 'Other-Pass1');
  other = await login(h, 'lists-other@clinic.example', 'Other-Pass1');
  admin = await loginAdmin(h);
  const statuses = ['Draft', 'Submitted', 'Pending Additional Information', 'Approved', 'Denied', 'Closed', 'Approved with Letter of Intent'];
  const kinds = [null, { certificateType: 'Auto Liability', autoType: 'Rental' }, { certificateType: 'Auto Liability', autoType: 'New/Leased Fleet Vehicle' },
    { certificateType: 'Auto Liability', autoType: null }, { certificateType: 'Event' }, { certificateType: 'Clinician' }];
  const employee = await loginEmployee(h); // certificates are for internal requesters
  let i = 0;
  for (const kind of kinds) {
    for (const status of statuses.slice(0, 3 + (i++ % 5))) {
      if (kind) await request(employee, kind, status);
      else for (const session of [owner, other]) await request(session, kind, status);
    }
  }
}, 120_000);
afterAll(async () => { await h?.stop(); });

describe('GET /admin-dashboard', () => {
  it('counts the queue exactly as its rows say, by type and status, after every change', async () => {
    const check = async () => {
      const rows = await allRows();
      const dash = await call(h, admin, 'GET', '/api/v1/admin-dashboard');
      expect(dash.status).toBe(200);
      expect(sorted(dash.body.queueCounts)).toEqual(countsOf(rows.filter(inQueue)));
      // The database is shared with other test files (one may leave a flagged letter): judge by what it holds.
      expect(dash.body.staleLettersTotal).toBe(await sql(`select count(*)::int as n from requests where letter_stale_since is not null`, []).then((r) => r[0].n));
      const now = new Date();
      const since = (from: Date) => sql(`select count(*)::int as n from requests where submit_date >= ?`, [from]).then((r) => r[0].n);
      expect(dash.body.requestCounts).toEqual({
        today: await since(new Date(now.getFullYear(), now.getMonth(), now.getDate())),
        monthToDate: await since(new Date(now.getFullYear(), now.getMonth(), 1)),
        yearToDate: await since(new Date(now.getFullYear(), 0, 1)),
      });
      expect(dash.body.requestCounts.today).toBeGreaterThan(0);
      return rows;
    };
    const rows = await check();
    // a status change, a type change and a deletion move the counts in the same transaction
    const [first, second] = rows.filter(inQueue);
    await sql(`update requests set status = 'Denied' where id = ?`, [first.id]);
    await sql(`update requests set request_type = 'certificate', certificate_type = 'Property', submit_date = now() - interval '40 days' where id = ?`, [second.id]);
    await check();
    const draft = rows.find((r) => r.status === 'Draft' && r.requesterId === owner.user.id)!;
    expect((await call(h, owner, 'DELETE', `/api/v1/requests/${draft.id}`)).status).toBe(200);
    await check();
  });

  it('answers at most $limit rows per list, the queue newest update first, never a decided request', async () => {
    const dash = await call(h, admin, 'GET', '/api/v1/admin-dashboard?$limit=3');
    expect(dash.status).toBe(200);
    expect(dash.body.adminRequests).toHaveLength(3);
    const queue = (await allRows()).filter(inQueue)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id).slice(0, 3).map((r) => r.id);
    expect(dash.body.adminRequests.map((r: Row) => r.id)).toEqual(queue);
    // Each row carries the fields the dashboard tables show, not the whole request (the form, notes, addresses).
    for (const row of dash.body.adminRequests) {
      expect(Object.keys(row).every((key) => key === 'id' || (DASHBOARD_FIELDS as readonly string[]).includes(key)), Object.keys(row).join()).toBe(true);
      expect(row).toHaveProperty('requestNumber');
    }
    expect((await call(h, admin, 'GET', '/api/v1/admin-dashboard')).body.adminRequests).toHaveLength(15);
    for (const limit of ['0', '51', 'x']) {
      const res = await call(h, admin, 'GET', `/api/v1/admin-dashboard?$limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request' });
    }
  });

  it('filters the queue and its counts by request type label', async () => {
    const rows = await allRows();
    for (const label of REQUEST_TYPE_FILTERS) {
      const res = await call(h, admin, 'GET', `/api/v1/admin-dashboard?$limit=50&requestTypeLabel=${encodeURIComponent(label)}`);
      expect(res.status).toBe(200);
      const matching = rows.filter((r) => inQueue(r) && requestTypeLabelOf(r) === label);
      // At most 50 a page (the shared test database may hold more): the newest 50; the counts cover them all.
      const newest = [...matching].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id).slice(0, 50);
      expect(res.body.adminRequests.map((r: Row) => r.id).sort(), label).toEqual(newest.map((r) => r.id).sort());
      expect(sorted(res.body.queueCounts), label).toEqual(countsOf(matching));
    }
  });

  it('refuses an unknown label with the spec error shape, and requesters altogether', async () => {
    const res = await call(h, admin, 'GET', '/api/v1/admin-dashboard?requestTypeLabel=Pizza');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request', errors: { requestTypeLabel: 'Unknown request type' } });
    expect((await call(h, owner, 'GET', '/api/v1/admin-dashboard')).status).toBe(403);
  });
});

describe('GET /requests with requestTypeLabel', () => {
  it('lists the rows of the label with their total, for every label', async () => {
    const rows = await allRows();
    for (const label of REQUEST_TYPE_FILTERS) {
      const res = await call(h, admin, 'GET', `/api/v1/requests?$limit=2&$sort[updatedAt]=-1&requestTypeLabel=${encodeURIComponent(label)}`);
      expect(res.status).toBe(200);
      const matching = rows.filter((r) => requestTypeLabelOf(r) === label);
      expect(res.body.total, label).toBe(matching.length);
      expect(res.body.data.every((r: Row) => requestTypeLabelOf(r) === label), label).toBe(true);
    }
  });

  it('combines the label with other filters, a status group and the total', async () => {
    const rows = await allRows();
    const label = 'COI Request: Auto Liability';
    const res = await call(h, admin, 'GET', `/api/v1/requests?$limit=1&requestTypeLabel=${encodeURIComponent(label)}&$or[0][status]=Draft&$or[1][status]=Submitted`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(rows.filter((r) => requestTypeLabelOf(r) === label && ['Draft', 'Submitted'].includes(r.status)).length);
    expect(res.body.total).toBeGreaterThan(1);
  });

  it("keeps a requester to their own requests and those naming their email", async () => {
    const naming = await call(h, owner, 'POST', '/api/v1/requests', { requestType: 'credentialing', lastName: 'Named', email: 'lists-other@clinic.example' });
    expect(naming.status).toBe(201);
    const named = await call(h, other, 'GET', `/api/v1/requests?$limit=1000&$sort[updatedAt]=-1`);
    expect(named.body.data.map((r: Row) => r.id)).toContain(naming.body.id);
    expect(named.body.total).toBe(named.body.data.length);
    const firstOfTwo = await call(h, other, 'GET', `/api/v1/requests?$limit=1&$sort[updatedAt]=-1`);
    expect(firstOfTwo.body).toMatchObject({ total: named.body.total, data: [{ id: naming.body.id }] });
    await call(h, owner, 'DELETE', `/api/v1/requests/${naming.body.id}`);
    const rows = await allRows();
    const label = REQUEST_TYPE_FILTERS[0];
    const res = await call(h, other, 'GET', `/api/v1/requests?$limit=1&requestTypeLabel=${encodeURIComponent(label)}`);
    expect(res.status).toBe(200);
    const theirs = rows.filter((r) => r.requesterId === other.user.id && requestTypeLabelOf(r) === label);
    expect(theirs.length).toBeGreaterThan(1);
    expect(res.body.total).toBe(theirs.length);
    expect(res.body.data.map((r: Row) => r.requesterId)).toEqual([other.user.id]);
    const all = await call(h, other, 'GET', '/api/v1/requests?$limit=1000');
    expect(all.body.data.every((r: Row) => r.requesterId === other.user.id)).toBe(true);
    expect(all.body.total).toBe(rows.filter((r) => r.requesterId === other.user.id).length);
  });

  it('answers each record as the request itself reads (ISO timestamps, every field, caller rules)', async () => {
    for (const session of [admin, owner]) {
      const list = await call(h, session, 'GET', '/api/v1/requests?$limit=3&$sort[updatedAt]=-1');
      expect(list.body.data.length).toBeGreaterThan(1);
      for (const item of list.body.data) {
        const { documents: _d, discussions: _s, claimHistory: _c, ...detail } = (await call(h, session, 'GET', `/api/v1/requests/${item.id}`)).body;
        expect(item).toEqual(detail);
        expect(item.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
    }
  });

  it('refuses an unknown label', async () => {
    const res = await call(h, owner, 'GET', '/api/v1/requests?requestTypeLabel=COI%20Request%3A%20Boat');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'BadRequest', errors: { requestTypeLabel: 'Unknown request type' } });
  });
});
