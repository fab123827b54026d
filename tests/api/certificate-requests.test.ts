/** Certificate requests on the API: numbers at creation, submit rules of each subtype, roles, ownership, people, clone. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formOf } from '../../services/requests/request-form';
import { RequestSchema } from '../../db/entities';
import { validateRequestOfKind } from '../../domain/request-rules';
import { DATE_RANGE_MESSAGES, MESSAGES, PERSON_MESSAGES, STATUS, TIME_OF_DAY_MESSAGE } from '../../domain';
import {
  call, certificateDraft, createExternalUser, credentialingDraft, login, loginAdmin, loginEmployee, loginRequester, type Session,
} from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let external: Session;
let employee: Session;
let stranger: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  external = await loginRequester(h);
  employee = await loginEmployee(h);
  await createExternalUser(h, 'third@clinic.example', 'Third-Pass1');
  stranger = await login(h, 'third@clinic.example', 'Third-Pass1');
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

describe('request numbers at creation (spec 2 §7.3)', () => {
  it('gives a draft the next number when it is created, and lets its requester delete it', async () => {
    const a = await call(h, employee, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType: 'Event' });
    const b = await call(h, employee, 'POST', '/api/v1/requests', { requestType: 'credentialing' });
    expect(a.status).toBe(201);
    expect(a.body.requestNumber).toBeGreaterThanOrEqual(50001);
    expect(b.body.requestNumber).toBe(a.body.requestNumber + 1);
    expect(a.body.personRole).toBe('Event Organizer');
    const list = await call(h, employee, 'GET', '/api/v1/requests?status=Draft');
    expect(list.body.data.find((r: { id: number }) => r.id === a.body.id).requestNumber).toBe(a.body.requestNumber);
    expect((await call(h, employee, 'DELETE', `/api/v1/requests/${a.body.id}`)).status).toBe(200);
  });

  it('refuses to delete a draft that was ever submitted (reopened)', async () => {
    const id = await certificateDraft(h, employee, 'Property');
    await h.orm.em.fork().nativeUpdate(RequestSchema, { id }, { submitDate: new Date() });
    const res = await call(h, employee, 'DELETE', `/api/v1/requests/${id}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('A reopened request cannot be deleted');
  });
});

describe('submit validation per subtype', () => {
  it('refuses a submit with each missing field in the spec error shape, and saves nothing', async () => {
    const created = await call(h, employee, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType: 'Event', eventName: 'Fair', eventPatientCare: 'Yes' });
    const res = await call(h, employee, 'PATCH', `/api/v1/requests/${created.body.id}`, { status: STATUS.submitted });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request', message: MESSAGES.fieldValidation });
    expect(res.body.errors).toMatchObject({
      eventType: MESSAGES.required, eventLocation: MESSAGES.required, eventPatientCareDetail: MESSAGES.required,
      lastName: MESSAGES.required, certificateHolder: MESSAGES.required, documents: MESSAGES.requiredDocuments,
    });
    expect(res.body.errors.eventName).toBeUndefined();
    const row = await h.orm.em.fork().findOneOrFail(RequestSchema, created.body.id);
    expect(row.status).toBe(STATUS.draft);
    expect(row.submitDate).toBeNull();
  });

  it('refuses an unchecked rental approval and a fleet vehicle without its Other detail', async () => {
    const rental = await certificateDraft(h, employee, 'Rental', { acknowledgedApproval: false });
    const r1 = await call(h, employee, 'PATCH', `/api/v1/requests/${rental}`, { status: STATUS.submitted });
    expect(r1.body.errors).toEqual({ acknowledgedApproval: 'Please confirm the rental is approved' });
    const fleet = await certificateDraft(h, employee, 'Fleet', { vehicleLocationOther: null });
    const r2 = await call(h, employee, 'PATCH', `/api/v1/requests/${fleet}`, { status: STATUS.submitted });
    expect(r2.body.errors).toEqual({ vehicleLocationOther: MESSAGES.required });
  });
});

/** The rules a submit applies to the stored request (no worker runs here, so a valid submit itself would wait for one). */
async function submitErrors(id: number) {
  const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
  return validateRequestOfKind(row.requestType, row.certificateType, formOf(row), { isExternal: false, today: '2026-11-26', documentCount: 1 });
}

describe('event and rental times; the Supervisor role', () => {
  it('stores times on the half hour and returns them; a time off the half hour or a one-day period ending early is refused', async () => {
    const id = await certificateDraft(h, employee, 'Event', { eventStartTime: '09:15' });
    const off = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
    expect(off.body.errors).toEqual({ eventStartTime: TIME_OF_DAY_MESSAGE });
    // the event is one day (05/01/2025)
    const same = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { eventStartTime: '17:00', eventEndTime: '08:30', status: STATUS.submitted });
    expect(same.body.errors).toEqual({
      eventStartTime: DATE_RANGE_MESSAGES.startTimeAfterEnd, eventEndTime: DATE_RANGE_MESSAGES.endTimeBeforeStart,
    });
    const fixed = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { eventStartTime: '08:00' });
    expect(fixed.body).toMatchObject({ eventStartTime: '08:00', eventEndTime: '08:30' });
    expect(await submitErrors(id)).toEqual({});
  });

  it('a request stored without times (before they existed) still loads and passes the submit rules', async () => {
    const id = await certificateDraft(h, employee, 'Rental');
    const loaded = await call(h, employee, 'GET', `/api/v1/requests/${id}`);
    expect(loaded.status).toBe(200);
    expect(loaded.body.rentalStartTime ?? null).toBeNull();
    expect(await submitErrors(id)).toEqual({});
  });

  it('auto liability names an Employee unless the requester chooses Supervisor; other roles are refused at submit', async () => {
    const id = await certificateDraft(h, employee, 'Fleet');
    expect((await call(h, employee, 'GET', `/api/v1/requests/${id}`)).body.personRole).toBe('Employee');
    await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { personRole: 'Provider' });
    const refused = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
    expect(refused.body.errors).toEqual({ personRole: MESSAGES.fieldValidation });
    const chosen = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { personRole: 'Supervisor' });
    expect(chosen.body.personRole).toBe('Supervisor');
    expect(await submitErrors(id)).toEqual({});
  });
});

describe('roles (spec 1 §6)', () => {
  it('lets external requesters create Clinician certificates only; the type is set for them', async () => {
    const refused = await call(h, external, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType: 'Event' });
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe('Forbidden');
    const auto = await call(h, external, 'POST', '/api/v1/requests', { requestType: 'certificate', lastName: 'Typed' });
    expect(auto.status).toBe(201);
    expect(auto.body).toMatchObject({ certificateType: 'Clinician', personRole: 'Clinician', employerType: 'external' });
  });

  it('refuses a write to another requester\'s certificate request', async () => {
    const id = await certificateDraft(h, employee, 'Clinician');
    expect((await call(h, stranger, 'PATCH', `/api/v1/requests/${id}`, { certificateHolder: 'Hacked' })).status).toBe(403);
    expect((await call(h, stranger, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted })).status).toBe(403);
    expect((await call(h, stranger, 'DELETE', `/api/v1/requests/${id}`)).status).toBe(403);
    expect((await h.orm.em.fork().findOneOrFail(RequestSchema, id)).certificateHolder).toBe('Mercy Hospital');
  });

  it('lets internal requesters and admins create every kind', async () => {
    for (const certificateType of ['Clinician', 'Auto Liability', 'Contracts/Lease', 'Event', 'Provider', 'Property']) {
      expect((await call(h, employee, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType })).status, certificateType).toBe(201);
    }
    expect((await call(h, admin, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType: 'Property' })).status).toBe(201);
    expect((await call(h, employee, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType: 'Boat' })).status).toBe(400);
  });
});

describe('people (spec 2 §7.5)', () => {
  it('needs a criterion, and last and first name together', async () => {
    const none = await call(h, employee, 'GET', '/api/v1/people');
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(PERSON_MESSAGES.criteriaRequired);
    expect((await call(h, employee, 'GET', '/api/v1/people?lastName=Ng')).status).toBe(400);
  });

  it('matches by contains on employee id, email, or last and first name, and is not for external requesters', async () => {
    const byName = await call(h, employee, 'GET', '/api/v1/people?lastName=staff&firstName=jor');
    expect(byName.status).toBe(200);
    expect(byName.body.data[0]).toMatchObject({ lastName: 'Staffer', firstName: 'Jordan', employeeId: '400100' });
    expect(byName.body.data[0].personType).toBeUndefined();
    const byId = await call(h, admin, 'GET', '/api/v1/people?employeeId=00100');
    expect(byId.body.data.some((p: { employeeId: string; personType: string }) => p.employeeId === '400100' && p.personType === 'Employee')).toBe(true);
    const students = await call(h, employee, 'GET', '/api/v1/people?employeeId=12345&$limit=5');
    expect(students.body.total).toBeGreaterThan(100);
    const none = await call(h, employee, 'GET', '/api/v1/people?email=nobody-at-all');
    expect(none.body).toEqual({ total: 0, data: [] });
    expect((await call(h, external, 'GET', '/api/v1/people?lastName=a&firstName=b')).status).toBe(403);
  });
});

describe('clone', () => {
  it('copies an approved request\'s form values into a new draft without documents, status or dates', async () => {
    const id = await certificateDraft(h, employee, 'Event');
    await h.orm.em.fork().nativeUpdate(RequestSchema, { id }, { status: STATUS.approved, submitDate: new Date(), completedDate: new Date() });
    const clone = await call(h, employee, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType: 'Event', cloneOf: id });
    expect(clone.status).toBe(201);
    expect(clone.body).toMatchObject({ status: STATUS.draft, eventName: 'Spring Health Fair', certificateHolder: 'City of Portland Parks', clonedFromId: id });
    expect(clone.body.submitDate ?? null).toBeNull();
    expect(clone.body.completedDate ?? null).toBeNull();
    expect(clone.body.requestNumber).not.toBeNull();
    expect((await call(h, employee, 'GET', `/api/v1/requests/${clone.body.id}`)).body.documents).toEqual([]);
    const draft = await certificateDraft(h, employee, 'Clinician');
    expect((await call(h, employee, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType: 'Clinician', cloneOf: draft })).status).toBe(400);
    expect((await call(h, stranger, 'POST', '/api/v1/requests', { requestType: 'certificate', certificateType: 'Clinician', cloneOf: id })).status).toBe(403);
  });

  it('copies a claim history request\'s clinician with its employee id, but not the authorization its own release vouched for', async () => {
    const id = await credentialingDraft(h, employee, { employeeId: '400100', addlRecipients: 'office@payor.example' });
    await h.orm.em.fork().nativeUpdate(RequestSchema, { id }, { status: STATUS.approved, submitDate: new Date(), completedDate: new Date() });
    const clone = await call(h, employee, 'POST', '/api/v1/requests', { requestType: 'credentialing', cloneOf: id });
    expect(clone.status).toBe(201);
    expect(clone.body).toMatchObject({ lastName: 'Nguyen', employeeId: '400100', addlRecipients: 'office@payor.example', clonedFromId: id });
    expect(clone.body.releaseAuthorized ?? null).toBeNull();
  });
});
