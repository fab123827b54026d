/**
 * The directory feed (`POST /people`, one call per person, administrators): a person is added, or replaced by employee
 * id. People under a shared IS code (spec 2 §9.3: 22222, 12345, …) are found again by their email, else their names
 * and birth date, so a second run of the same feed leaves the directory as the first left it and person search
 * lists each of them once. The migration that removes the copies earlier runs left is tested on a database of its own.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropDatabase, ensureDatabase } from '../../db/database';
import { PersonSchema } from '../../db/entities';
import { createOrm, type Orm } from '../../db/orm';
import { call, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let employee: Session;
beforeAll(async () => {
  h = await startHarness({ worker: false });
  [admin, employee] = await Promise.all([loginAdmin(h), loginEmployee(h)]);
});
afterAll(async () => { await h?.stop(); });

const tag = randomBytes(3).toString('hex');
const person = (fields: Record<string, unknown>) => ({ employmentStatus: 'A', personType: 'Employee', ...fields });

/** A feed as the directory sends it: employees under their own ids, and non-employees under the shared codes. */
const FEED = [
  person({ employeeId: `F${tag}1`, lastName: `Feed${tag}`, firstName: 'Employee', email: `employee.${tag}@ohsu.example` }),
  person({ employeeId: '22222', lastName: `Feed${tag}`, firstName: 'Incoming', email: `incoming.${tag}@mail.example`, birthDate: '1990-04-12T11:00:00.000Z' }),
  person({ employeeId: '22222', lastName: `Feed${tag}`, firstName: 'Other', email: `Other.${tag}@Mail.Example` }),
  person({ employeeId: '12345', lastName: `Feed${tag}`, firstName: 'Student', personType: 'Student', birthDate: '2001-02-03T11:00:00.000Z' }),
  person({ employeeId: '12345', lastName: `Feed${tag}`, firstName: 'Student', personType: 'Student', birthDate: '2002-05-06T11:00:00.000Z' }),
  person({ employeeId: '99999', lastName: `Feed${tag}`, firstName: 'Volunteer', middleInitial: 'Q' }),
];

async function runFeed(): Promise<number[]> {
  const statuses: number[] = [];
  for (const record of FEED) {
    const res = await call(h, admin, 'POST', '/api/v1/people', record);
    expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
    statuses.push(res.status);
  }
  return statuses;
}

/** The directory's rows of this feed, as they read (when a row was last confirmed by the feed aside). */
async function feedRows() {
  const rows = await h.orm.em.fork().find(PersonSchema, { lastName: `Feed${tag}` }, { orderBy: { id: 'asc' } });
  return rows.map(({ createdAt: _c, updatedAt: _u, ...row }) => row);
}

describe('the directory feed run twice', () => {
  it('adds everybody on the first run and changes nothing on the second; person search lists each person once', async () => {
    expect(await runFeed()).toEqual(FEED.map(() => 201));
    const first = await feedRows();
    expect(first).toHaveLength(FEED.length);

    expect(await runFeed()).toEqual(FEED.map(() => 200)); // each record found again and replaced by itself
    expect(await feedRows()).toEqual(first);

    const search = await call(h, employee, 'GET', `/api/v1/people?lastName=Feed${tag}&firstName=Incoming`);
    expect(search.body.total).toBe(1);
    const students = await call(h, employee, 'GET', `/api/v1/people?lastName=Feed${tag}&firstName=Student`);
    expect(students.body.total).toBe(2); // two students under 12345, told apart by their birth dates
  });

  it('a later run with a changed record under a shared code replaces that person, not another', async () => {
    const [, incoming] = FEED;
    const res = await call(h, admin, 'POST', '/api/v1/people', { ...incoming, title: 'Fellow', employmentStatus: 'T' });
    expect(res.status).toBe(200);
    const rows = await h.orm.em.fork().find(PersonSchema, { lastName: `Feed${tag}`, employeeId: '22222' }, { orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.firstName, r.title, r.employmentStatus])).toEqual([['Incoming', 'Fellow', 'T'], ['Other', null, 'A']]);
  });
});

describe('Migration20261130100001_shared_code_people_once', () => {
  let databaseUrl: string;
  let orm: Orm;
  beforeAll(async () => {
    const url = new URL(inject('databaseUrl'));
    url.pathname = `/coi_test_${process.pid}_people_${randomBytes(3).toString('hex')}`;
    databaseUrl = url.toString();
    await ensureDatabase(databaseUrl);
    orm = await createOrm(databaseUrl);
  });
  afterAll(async () => {
    await orm?.close();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  it('removes the copies earlier feed runs left under shared codes, keeping each person\'s latest record', async () => {
    await orm.migrator.up({ to: 'Migration20261129100001_state_in_columns' });
    const sql = orm.em.getConnection();
    const insert = (employeeId: string, firstName: string, email: string | null, birth: string | null, updated: string) => sql.execute(
      `insert into people (created_at, updated_at, employee_id, email, last_name, first_name, birth_date, employment_status, person_type)
       values (?, ?, ?, ?, 'Copied', ?, ?, 'A', 'Employee') returning id`, [updated, updated, employeeId, email, firstName, birth]);
    const [mailOld] = await insert('22222', 'Mail', 'mail@x.example', null, '2026-01-01T00:00:00Z');
    const [mailNew] = await insert('22222', 'Mail', 'MAIL@x.example', null, '2026-03-01T00:00:00Z');
    const [mailOther] = await insert('22222', 'Mail', 'other@x.example', null, '2026-01-01T00:00:00Z');
    const [nameOld] = await insert('12345', 'Name', null, '2001-02-03T11:00:00Z', '2026-01-01T00:00:00Z');
    const [nameNew] = await insert('12345', 'Name', null, '2001-02-03T11:00:00Z', '2026-02-01T00:00:00Z');
    const [nameOtherBirth] = await insert('12345', 'Name', null, '2002-02-03T11:00:00Z', '2026-01-01T00:00:00Z');
    const [personalA] = await insert('700001', 'Personal', 'p@x.example', null, '2026-01-01T00:00:00Z');
    const [otherCode] = await insert('99999', 'Mail', 'mail@x.example', null, '2026-01-01T00:00:00Z');

    await orm.migrator.up();
    const left = (await sql.execute<{ id: number }[]>(`select id from people where last_name = 'Copied' order by id`)).map((r) => r.id);
    expect(left).toEqual([mailNew.id, mailOther.id, nameNew.id, nameOtherBirth.id, personalA.id, otherCode.id]);
    expect(left).not.toContain(mailOld.id);
    expect(left).not.toContain(nameOld.id);
  });
});
