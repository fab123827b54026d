/**
 * The directory's facts on a request (spec 1 §3 "Clinician or person: … hireDate,
 * employmentStatus (A active, T terminated), terminationDate"): a request naming a person by employee id carries their
 * hire date, employment status and termination date as the directory had them at the save. Administrators see them;
 * requesters never do (the directory's dates are for administrators), nor may they list by them.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PersonSchema } from '../../db/entities';
import { call, credentialingDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let employee: Session;
const employeeId = `9${randomBytes(3).readUIntBE(0, 3) % 100000}`.padEnd(6, '0');

beforeAll(async () => {
  h = await startHarness({ worker: false });
  [admin, employee] = await Promise.all([loginAdmin(h), loginEmployee(h)]);
  const em = h.orm.em.fork();
  em.create(PersonSchema, {
    employeeId, email: `${employeeId}@ohsu.example`, lastName: 'Okafor', firstName: 'Ada', personType: 'Employee',
    hireDate: new Date('2015-08-03T11:00:00Z'), employmentStatus: 'T', terminationDate: new Date('2024-06-28T11:00:00Z'),
  });
  await em.flush();
});
afterAll(async () => { await h?.stop(); });

const asAdmin = async (id: number) => (await call(h, admin, 'GET', `/api/v1/requests/${id}`)).body;

describe('the directory facts of the person a request names', () => {
  it('are copied by employee id for administrators, and never shown to the requester', async () => {
    const id = await credentialingDraft(h, employee, { employeeId, lastName: 'Okafor', firstName: 'Ada' });
    expect(await asAdmin(id)).toMatchObject({
      employeeId, hireDate: '2015-08-03T11:00:00.000Z', employmentStatus: 'T', terminationDate: '2024-06-28T11:00:00.000Z',
    });
    const mine = (await call(h, employee, 'GET', `/api/v1/requests/${id}`)).body;
    expect(mine.employeeId).toBe(employeeId);
    for (const field of ['hireDate', 'employmentStatus', 'terminationDate']) expect(mine).not.toHaveProperty(field);
    const listed = (await call(h, employee, 'GET', `/api/v1/requests?id=${id}`)).body.data[0];
    expect(listed).not.toHaveProperty('hireDate');
    expect((await call(h, employee, 'GET', '/api/v1/requests?employmentStatus=T')).status).toBe(400);
  });

  it('follow the employee id: another person, or none, on the next save', async () => {
    const id = await credentialingDraft(h, employee, { employeeId, lastName: 'Okafor', firstName: 'Ada' });
    const changed = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { employeeId: 'NOBODY1' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await asAdmin(id)).toMatchObject({ employeeId: 'NOBODY1', hireDate: null, employmentStatus: null, terminationDate: null });
    await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { employeeId });
    expect((await asAdmin(id)).employmentStatus).toBe('T');
  });

  it('are never taken from a shared IS code: 22222 "Not yet at the university" names nobody', async () => {
    // Someone else "not yet at the university", listed with a hire date and a status of their own.
    const em = h.orm.em.fork();
    em.create(PersonSchema, {
      employeeId: '22222', email: 'someone.else@example.org', lastName: 'Lindqvist', firstName: 'Bo', personType: 'Employee',
      hireDate: new Date('2019-02-01T11:00:00Z'), employmentStatus: 'T', terminationDate: new Date('2023-01-31T11:00:00Z'),
    });
    await em.flush();
    const id = await credentialingDraft(h, employee, { employeeId: '22222', lastName: 'Okafor', firstName: 'Ada' });
    expect(await asAdmin(id)).toMatchObject({ employeeId: '22222', hireDate: null, employmentStatus: null, terminationDate: null });
    await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { employeeId: ' 22222 ' });
    expect(await asAdmin(id)).toMatchObject({ hireDate: null, employmentStatus: null, terminationDate: null });
  });
});
