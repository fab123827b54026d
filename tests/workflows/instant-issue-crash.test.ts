/**
 * An instant issue survives the worker's death: the worker is a separate process, killed with SIGKILL once the rule's
 * decision is written (before or as the approval is recorded), and again once the approval is recorded (before or as
 * the letter is printed), then started again. Each request is decided once, approved once, and its certificate
 * printed and emailed once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IssuedLetterSchema, RequestActivitySchema } from '../../db/entities';
import { kysely } from '../../db/kysely';
import { STATUS } from '../../domain';
import { requestWorkflowId } from '../../workflows/request.messages';
import { call, certificateDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';
import { workerProcess } from '../support/worker-process';
import { activitiesSettled } from '../support/workflow-activities';

let h: Harness;
let employee: Session;
let admin: Session;

const worker = workerProcess(() => h);
const startWorker = () => worker.start();
const killWorker = () => worker.kill();

beforeAll(async () => {
  h = await startHarness({ worker: false });
  employee = await loginEmployee(h);
  admin = await loginAdmin(h);
  await startWorker();
}, 180_000);
afterAll(async () => {
  if (worker.running()) await killWorker();
  await h?.stop();
});

const db = () => kysely(h.orm.em.fork());

async function submitted(): Promise<{ id: number; number: number }> {
  const id = await certificateDraft(h, employee, 'Event', { eventPatientCare: 'No', eventPatientCareDetail: '' });
  const sub = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  return { id, number: sub.body.requestNumber as number };
}

it('kill -9 of the worker during an instant issue: decided once, approved once, one certificate emailed once', async () => {
  const rule = await call(h, admin, 'POST', '/api/v1/instant-rules', {
    name: 'Standard events', kinds: ['Event'], conditions: { combinator: 'and', rules: [{ field: 'eventPatientCare', operator: '=', value: 'No' }] },
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(201);
  await call(h, admin, 'PUT', `/api/v1/instant-rules/${rule.body.id}/enabled`, { enabled: true });
  await call(h, admin, 'PUT', '/api/v1/instant-settings', { enabled: true });

  // 1. Killed once the decision is written: the approval may or may not be recorded yet.
  const first = await submitted();
  await eventually(() => db().selectFrom('instant_decisions').select('id').where('request_id', '=', first.id).executeTakeFirst(), 60_000, 10);
  await killWorker();
  await startWorker();
  // 2. Killed once the approval is recorded: the letter may be printing.
  const second = await submitted();
  await eventually(() => db().selectFrom('requests').select('id').where('id', '=', second.id).where('status', '=', STATUS.approved).executeTakeFirst(), 60_000, 10);
  await killWorker();
  await startWorker();

  for (const r of [first, second]) {
    await h.sink.waitFor((m) => m.subject === `Request ${r.number} approved: certificate of insurance`, 180_000);
    await activitiesSettled(h.temporal, requestWorkflowId(r.number), 120_000); // nothing still on its way
    const decisions = await db().selectFrom('instant_decisions').select(['outcome']).where('request_id', '=', r.id).execute();
    expect(decisions).toEqual([{ outcome: 'issued' }]);
    const approvals = await h.orm.em.fork().find(RequestActivitySchema, { requestId: r.id, activityText: { $like: '%to "Approved"%' } });
    expect(approvals.map((a) => a.performedBy)).toEqual(['Rule: Standard events v1']);
    expect(await h.orm.em.fork().count(IssuedLetterSchema, { requestId: r.id, issuedAt: { $ne: null } })).toBe(1);
    expect(h.sink.messages().filter((m) => m.subject === `Request ${r.number} approved: certificate of insurance`)).toHaveLength(1);
  }
}, 600_000);
