/**
 * Requests that wake by themselves, on the real worker, Temporal dev server and SMTP sink:
 * a policy year that covers a waiting request's dates, or a directory record that shows its clinician active, sends
 * the request back to Submitted through its workflow, with one audit row and one email to the administrators'
 * mailbox, however often the wake-up is triggered. A change the API never passed on is caught by the sweep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PersonSchema, RequestActivitySchema, RequestSchema } from '../../db/entities';
import { EMAIL_TEMPLATE_ORDER, REQUEST_RETURNED_TO_REVIEW, REQUEST_RETURNED_TO_REVIEW_ORDER, STATUS, WAKE_UP_ACTOR } from '../../domain';
import { ensureWakeUpSweepSchedule } from '../../worker/wake-up-sweep';
import { WAKE_UP_SWEEP_SCHEDULE_ID, WAKE_UP_SWEEP_WORKFLOW, WAKE_UP_WORKFLOW, type WakeUpInput } from '../../workflows/wake-up.messages';
import { call, certificateDraft, credentialingDraft, loginAdmin, loginEmployee, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';
import { activitiesSettled } from '../support/workflow-activities';

let h: Harness;
let owner: Session;
let admin: Session;
let employee: Session;

beforeAll(async () => {
  h = await startHarness();
  owner = await loginRequester(h);
  admin = await loginAdmin(h);
  employee = await loginEmployee(h);
});
afterAll(async () => { await h?.stop(); });

const day = (d: string) => `${d}T11:00:00.000Z`;

/**
 * A submitted request that an administrator parked in `status`: credentialing (employment), or an event certificate
 * by an internal requester (policy years: credentialing dates cannot lie in the future, event dates can).
 */
async function waitingRequest(status: string, fields: Record<string, unknown>): Promise<{ id: number; number: number }> {
  const requester = status === STATUS.pendingNewPolicyYear ? employee : owner;
  const id = status === STATUS.pendingNewPolicyYear ? await certificateDraft(h, employee, 'Event', fields) : await credentialingDraft(h, owner, fields);
  const submitted = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(submitted.status).toBe(200);
  const parked = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status });
  expect(parked.status, JSON.stringify(parked.body)).toBe(200);
  const row = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
  return { id, number: row.requestNumber! };
}

const statusOf = async (id: number) => (await h.orm.em.fork().findOneOrFail(RequestSchema, id)).status;
const wakeRows = (id: number) => h.orm.em.fork().find(RequestActivitySchema, { requestId: id, performedBy: WAKE_UP_ACTOR.name });
const wakeEmails = (number: number) => h.sink.messages().filter((m) => m.subject.includes(`Request ${number} is back in review`));

const runWakeUp = (workflowId: string, input: WakeUpInput | null) => input
  ? h.temporal.workflow.execute(WAKE_UP_WORKFLOW, { taskQueue: h.config.taskQueue, workflowId, args: [input] })
  : h.temporal.workflow.execute(WAKE_UP_SWEEP_WORKFLOW, { taskQueue: h.config.taskQueue, workflowId, args: [] });

/** Wake-ups are asynchronous: wait for the status, then for the email's audit row (the effect goes out after). */
async function expectWoken(request: { id: number; number: number }, timeoutMs = 60_000) {
  await eventually(async () => (await statusOf(request.id)) === STATUS.submitted, timeoutMs);
  await eventually(async () => wakeEmails(request.number).length > 0);
  await eventually(async () => (await h.orm.em.fork().count(RequestActivitySchema, { requestId: request.id, activityText: { $like: `"${REQUEST_RETURNED_TO_REVIEW}" email sent%` } })) > 0);
}

describe('Pending New Policy Year wakes by itself', () => {
  it('returns the request to Submitted when a policy year covering its dates is added, and leaves one not covered waiting', async () => {
    const covered = await waitingRequest(STATUS.pendingNewPolicyYear, { eventStartDate: day('2071-08-01'), eventEndDate: day('2071-08-03') });
    const beyond = await waitingRequest(STATUS.pendingNewPolicyYear, { eventStartDate: day('2073-08-01'), eventEndDate: day('2073-08-02') });

    const added = await call(h, admin, 'POST', '/api/v1/policies', { startDate: '07/01/2071', endDate: '06/30/2072', policyNumber: 'UHS-PL-2071-72', limitClaim: '3000000', annualAggregate: '6000000' });
    expect(added.status).toBe(201);

    await expectWoken(covered);
    const [row] = await wakeRows(covered.id);
    expect(row.activityText).toBe(`Status changed from "${STATUS.pendingNewPolicyYear}" to "${STATUS.submitted}": returned to review by itself: policy year 07/01/2071 – 06/30/2072 (UHS-PL-2071-72) now covers the request's dates`);
    const [email] = wakeEmails(covered.number);
    expect(email.to).toEqual([h.config.riskManagementEmail]);

    // The request whose dates lie beyond every policy year keeps waiting (give the wake-up time to have run).
    await runWakeUp(`test-wake-policy-again-${added.body.id}`, { reason: 'policy-year', sourceId: added.body.id });
    expect(await statusOf(beyond.id)).toBe(STATUS.pendingNewPolicyYear);
    expect(await wakeRows(beyond.id)).toHaveLength(0);
  });

  it('applies once however often it is triggered: one audit row, one email', async () => {
    const waiting = await waitingRequest(STATUS.pendingNewPolicyYear, { eventStartDate: day('2075-09-01'), eventEndDate: day('2075-09-01') });
    const em = h.orm.em.fork();
    const added = await call(h, admin, 'POST', '/api/v1/policies', { startDate: '07/01/2075', endDate: '06/30/2076', policyNumber: 'UHS-PL-2075-76', limitClaim: '3000000', annualAggregate: '6000000' });
    expect(added.status).toBe(201);
    const cause: WakeUpInput = { reason: 'policy-year', sourceId: added.body.id };
    // The API's own start, two more wake-ups of the same cause at once, and the sweep.
    await Promise.all([
      runWakeUp(`test-wake-twice-a-${added.body.id}`, cause),
      runWakeUp(`test-wake-twice-b-${added.body.id}`, cause),
      runWakeUp(`test-sweep-${added.body.id}`, null),
    ]);
    await expectWoken(waiting);
    await runWakeUp(`test-wake-twice-c-${added.body.id}`, cause);
    await activitiesSettled(h.temporal, `request-${waiting.number}`); // an extra email would have gone out by now
    expect(await wakeRows(waiting.id)).toHaveLength(1);
    expect(wakeEmails(waiting.number)).toHaveLength(1);
    expect(await em.count(RequestActivitySchema, { requestId: waiting.id, activityText: { $like: `"${REQUEST_RETURNED_TO_REVIEW}" email sent%` } })).toBe(1);
  });
});

describe('Pending Employment wakes by itself', () => {
  async function directoryPerson(employeeId: string, employmentStatus: 'A' | 'T') {
    const res = await call(h, admin, 'POST', '/api/v1/people', {
      employeeId, lastName: 'Hire', firstName: `New ${employeeId}`, employmentStatus, personType: 'Employee', email: `${employeeId.toLowerCase()}@hospital.example`,
    });
    expect([200, 201]).toContain(res.status);
    return res.body as { id: number };
  }

  it('returns the request to Submitted when its clinician is made active, and leaves another clinician\'s waiting', async () => {
    const person = await directoryPerson('W7001', 'T');
    await directoryPerson('W7002', 'T');
    const waiting = await waitingRequest(STATUS.pendingEmployment, { employeeId: 'W7001' });
    const other = await waitingRequest(STATUS.pendingEmployment, { employeeId: 'W7002' });

    const edited = await call(h, admin, 'PATCH', `/api/v1/people/${person.id}`, { employmentStatus: 'A', hireDate: day('2026-11-01') });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ employeeId: 'W7001', employmentStatus: 'A' });

    await expectWoken(waiting);
    const [row] = await wakeRows(waiting.id);
    expect(row.activityText).toContain('the employee directory shows New W7001 Hire (W7001) as active');
    expect(wakeEmails(waiting.number)[0].to).toEqual([h.config.riskManagementEmail]);
    await runWakeUp(`test-wake-person-again-${person.id}`, { reason: 'employment', sourceId: person.id });
    expect(await statusOf(other.id)).toBe(STATUS.pendingEmployment);
  });

  it('matches by the employee id the clinician search recorded first: a person who only shares the email does not wake it', async () => {
    const named = await directoryPerson('W7021', 'T');
    const namesake = await directoryPerson('W7022', 'T');
    // The claim history form records the picked clinician's employee id with the email.
    const waiting = await waitingRequest(STATUS.pendingEmployment, { employeeId: 'W7021', email: 'w7022@hospital.example' });
    const byEmailOnly = await waitingRequest(STATUS.pendingEmployment, { email: 'w7022@hospital.example' });

    expect((await call(h, admin, 'PATCH', `/api/v1/people/${namesake.id}`, { employmentStatus: 'A' })).status).toBe(200);
    await expectWoken(byEmailOnly); // no employee id recorded: the email decides
    await runWakeUp(`test-wake-namesake-${namesake.id}`, { reason: 'employment', sourceId: namesake.id });
    await runWakeUp(`test-sweep-namesake-${namesake.id}`, null);
    expect(await statusOf(waiting.id)).toBe(STATUS.pendingEmployment);

    expect((await call(h, admin, 'PATCH', `/api/v1/people/${named.id}`, { employmentStatus: 'A' })).status).toBe(200);
    await expectWoken(waiting);
    const [row] = await wakeRows(waiting.id);
    expect(row.activityText).toContain('(W7021) as active');
  });

  it('wakes for the clinician hired under a personal id, never for another 22222 person or a namesake', async () => {
    const clinician = { lastName: 'Vandersloot', firstName: 'Ifeoma', birthDate: day('1990-04-12') };
    // Not yet at the university: the request names the clinician under the shared IS code, with a private email.
    const waiting = await waitingRequest(STATUS.pendingEmployment, { ...clinician, employeeId: '22222', email: 'ifeoma.v@mail.example' });
    const save = async (person: Record<string, unknown>) => {
      const res = await call(h, admin, 'POST', '/api/v1/people', { employmentStatus: 'A', personType: 'Employee', ...person });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: number };
    };
    const stillWaiting = async (cause: { id: number }, label: string) => {
      await runWakeUp(`test-wake-${label}-${cause.id}`, { reason: 'employment', sourceId: cause.id });
      await runWakeUp(`test-sweep-${label}-${cause.id}`, null);
      expect(await statusOf(waiting.id), label).toBe(STATUS.pendingEmployment);
      expect(await wakeRows(waiting.id), label).toHaveLength(0);
    };

    // Somebody else not yet at the university, saved active under the same code: added beside, nobody woken.
    const other = await save({ employeeId: '22222', lastName: 'Lindqvist', firstName: 'Bo', email: 'bo.l@mail.example' });
    await stillWaiting(other, 'other-22222');
    // Even the clinician's own record under the code is nobody in particular.
    const coded = await save({ employeeId: '22222', ...clinician, email: 'ifeoma.v@mail.example' });
    expect(coded.id).not.toBe(other.id); // a shared code adds a record, never replaces another's
    await stillWaiting(coded, 'coded');
    // A namesake hired under a personal id: same names, another birth date and email.
    const namesake = await save({ employeeId: 'W7377', ...clinician, birthDate: day('1971-09-30'), email: 'i.vandersloot@hospital.example' });
    await stillWaiting(namesake, 'namesake');

    // The clinician is hired under a personal id (a new work email): same names and birth date.
    await save({ employeeId: 'W7204', ...clinician, email: 'vandersloot@hospital.example' });
    await expectWoken(waiting);
    const [row] = await wakeRows(waiting.id);
    expect(row.activityText).toContain('the employee directory shows Ifeoma Vandersloot (W7204) as active');
  });

  it('refuses a person date that is not a date with the person form\'s message, and keeps the record', async () => {
    const person = await directoryPerson('W7010', 'T');
    const refused = await call(h, admin, 'PATCH', `/api/v1/people/${person.id}`, { employmentStatus: 'A', hireDate: '13/45/2026' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toMatchObject({ hireDate: 'Invalid date' });
    const added = await call(h, admin, 'POST', '/api/v1/people', { employeeId: 'W7011', lastName: 'Date', firstName: 'Bad', employmentStatus: 'A', personType: 'Employee', birthDate: 'yesterday' });
    expect(added.status).toBe(400);
    expect(added.body.errors).toMatchObject({ birthDate: 'Invalid date' });
    const stored = await h.orm.em.fork().findOneOrFail(PersonSchema, person.id);
    expect(stored.employmentStatus).toBe('T');
    expect(await h.orm.em.fork().count(PersonSchema, { employeeId: 'W7011' })).toBe(0);
  });

  it('does not wake on a record that stays terminated; a directory update showing the person active does', async () => {
    const person = await directoryPerson('W7003', 'T');
    const waiting = await waitingRequest(STATUS.pendingEmployment, { employeeId: 'W7003' });
    await call(h, admin, 'PATCH', `/api/v1/people/${person.id}`, { title: 'Resident' });
    await runWakeUp(`test-wake-terminated-${person.id}`, { reason: 'employment', sourceId: person.id });
    expect(await statusOf(waiting.id)).toBe(STATUS.pendingEmployment);

    const update = await call(h, admin, 'POST', '/api/v1/people', { employeeId: 'W7003', lastName: 'Hire', firstName: 'New W7003', employmentStatus: 'A', personType: 'Employee' });
    expect(update.status).toBe(200); // replaced, not added
    await expectWoken(waiting);
    expect(await wakeRows(waiting.id)).toHaveLength(1);
  });

  it('catches a change the API never passed on (it died after the commit): the sweep wakes the request', async () => {
    const person = await directoryPerson('W7004', 'T');
    const waiting = await waitingRequest(STATUS.pendingEmployment, { employeeId: 'W7004' });
    // The directory row changes without any wake-up being started.
    await h.orm.em.fork().nativeUpdate(PersonSchema, { id: person.id }, { employmentStatus: 'A', updatedAt: new Date() });
    expect(await statusOf(waiting.id)).toBe(STATUS.pendingEmployment);
    const woken = await runWakeUp(`test-sweep-person-${person.id}`, null);
    expect(woken).toBeGreaterThanOrEqual(1);
    await expectWoken(waiting);
  });

  it('the sweep Schedule the worker sets at start wakes it too, with nobody starting a workflow', async () => {
    const person = await directoryPerson('W7005', 'T');
    const waiting = await waitingRequest(STATUS.pendingEmployment, { employeeId: 'W7005' });
    await h.orm.em.fork().nativeUpdate(PersonSchema, { id: person.id }, { employmentStatus: 'A', updatedAt: new Date() });
    // The Schedule is one per namespace, and the run's Temporal server is shared: workers other test files start (and
    // kill) set it too, so it may point at their task queue, or wait, under its overlap policy (SKIP), for a sweep
    // "running" on a queue nobody polls any more. Each time that is so, this worker sets it afresh, as its start
    // would on a server of its own; then the test waits for the event itself: the request woken.
    const schedule = h.temporal.schedule.getHandle(WAKE_UP_SWEEP_SCHEDULE_ID);
    const takenByAnother = async () => {
      const described = await schedule.describe().catch(() => null);
      if (!described || (described.action.type === 'startWorkflow' && described.action.taskQueue !== h.config.taskQueue)) return true;
      for (const { workflow } of described.info.runningActions) {
        const run = await h.temporal.workflow.getHandle(workflow.workflowId, workflow.firstExecutionRunId).describe().catch(() => null);
        if (run && run.taskQueue !== h.config.taskQueue) return true;
      }
      return false;
    };
    try {
      await eventually(async () => {
        if ((await statusOf(waiting.id)) === STATUS.submitted) return true;
        if (await takenByAnother()) {
          await schedule.delete().catch(() => {});
          await ensureWakeUpSweepSchedule(h.temporal, h.config.taskQueue); // what worker/worker.ts does at start
        }
        return false;
      }, 120_000, 250);
      await expectWoken(waiting);
      const described = await schedule.describe();
      expect(described.action).toMatchObject({ workflowType: WAKE_UP_SWEEP_WORKFLOW });
      expect(described.info.recentActions.length).toBeGreaterThan(0);
    } finally {
      await schedule.delete();
    }
  });

  it('refuses directory writes from requesters', async () => {
    const res = await call(h, owner, 'POST', '/api/v1/people', { employeeId: 'W7999', lastName: 'X', firstName: 'Y', employmentStatus: 'A', personType: 'Employee' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ name: 'Forbidden', code: 403 });
  });
});

describe('the Request Returned to Review template', () => {
  it('is seeded after the twelve, which keep their titles and orders, and is editable like them', async () => {
    const list = await call(h, admin, 'GET', '/api/v1/email-templates');
    expect(list.status).toBe(200);
    const rows = list.body.data as Array<{ id: number; title: string; order: number }>;
    const template = rows.find((t) => t.title === REQUEST_RETURNED_TO_REVIEW)!;
    expect(template.order).toBe(REQUEST_RETURNED_TO_REVIEW_ORDER);
    for (const [title, order] of EMAIL_TEMPLATE_ORDER) expect(rows.find((t) => t.title === title)?.order, title).toBe(order);
    const edited = await call(h, admin, 'PATCH', `/api/v1/email-templates/${template.id}`, { subject: 'Request {{requestNumber}} is back in review (edited)' });
    expect(edited.status).toBe(200);
    expect(edited.body.subject).toBe('Request {{requestNumber}} is back in review (edited)');
  });
});
