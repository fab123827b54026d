/**
 * Problems are visible in one place, on real parts: an email the mail server refused for good is
 * listed as failed with its reason and leaves the list once sent again; one the server keeps deferring (450) is
 * listed as delayed, with the last attempt's error, once it has waited 10 minutes (the wait compressed by dating
 * its row back), and leaves the list when it goes out; the dashboard counts them and readiness reports the oldest
 * pending email's age. A database of its own: the list spans every request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestActivitySchema, RequestEffectSchema } from '../../db/entities';
import { refuseInvalidDomains } from '../../devtools/smtp-sink';
import { call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { ownDatabase } from '../support/own-database';
import { startHarness, type Harness } from '../support/portal-harness';
import { DEV_REQUESTER_EMAIL } from './fixtures-constants';

let h: Harness;
let database: Awaited<ReturnType<typeof ownDatabase>>;
let requester: Session;
let admin: Session;

beforeAll(async () => {
  database = await ownDatabase('email_problems');
  h = await startHarness({ databaseUrl: database.url });
  requester = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => {
  await h?.stop();
  await database?.drop();
});

type Problem = { effectId: number; requestId: number; requestNumber: number; state: string; stateLabel: string; subject: string; recipients: string; reason: string | null; since: string; retryOf: number | null };
const problems = async () => {
  const res = await call(h, admin, 'GET', '/api/v1/email-problems');
  expect(res.status).toBe(200);
  return res.body as { total: number; data: Problem[] };
};
const dashboardCount = async () => (await call(h, admin, 'GET', '/api/v1/admin-dashboard')).body.emailProblems as number;
const readiness = async () => (await h.app.inject({ method: 'GET', url: '/api/v1/health/ready' })).json() as { oldestPendingEffectSeconds: number | null };

async function submit() {
  const id = await credentialingDraft(h, requester);
  const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(res.status).toBe(200);
  return { id, number: res.body.requestNumber as number };
}

describe('emails not sent, in one place', () => {
  it('a refused email is listed as failed with its reason, counted on the dashboard, and leaves the list once sent again', async () => {
    expect((await problems()).total).toBe(0);
    expect(await dashboardCount()).toBe(0);
    h.sink.setRecipientRule((address) => (address === DEV_REQUESTER_EMAIL ? '550 5.1.1 mailbox unavailable' : null));
    const { id, number } = await submit();
    const failed = await eventually(async () => (await problems()).data.find((p) => p.requestId === id), 60_000);
    expect(failed).toMatchObject({
      requestNumber: number, state: 'failed', stateLabel: 'Failed', subject: 'Submission Confirmation', recipients: DEV_REQUESTER_EMAIL,
    });
    expect(failed.reason).toMatch(/550/);
    const entry = await h.orm.em.fork().findOneOrFail(RequestActivitySchema, { requestId: id, activityType: 'Email Failed' });
    expect(failed.retryOf).toBe(entry.id);
    expect(await dashboardCount()).toBe(1);

    h.sink.setRecipientRule(refuseInvalidDomains);
    const again = await call(h, admin, 'POST', '/api/v1/send-email', { requestId: id, templateTitle: 'Submission Confirmation', retryOf: failed.retryOf });
    expect(again.status).toBe(202);
    await h.sink.waitFor((m) => m.subject.includes(String(number)) && m.subject.includes('received'), 60_000);
    expect((await problems()).total).toBe(0);
    expect(await dashboardCount()).toBe(0);
  });

  it('an email the server keeps deferring is listed as delayed after 10 minutes, with the last error, until it goes out', async () => {
    h.sink.setRecipientRule((address) => (address === DEV_REQUESTER_EMAIL ? '450 4.2.1 mailbox busy, try later' : null));
    const { id, number } = await submit();
    const effects = () => h.orm.em.fork().find(RequestEffectSchema, { requestId: id });
    // Retried, not failed: the row stays pending and carries the last attempt's error.
    const pending = await eventually(async () => (await effects()).find((e) => e.state === 'pending' && e.failure), 60_000);
    expect(pending.failure).toMatch(/^last attempt: .*450/);
    expect((await problems()).total).toBe(0); // not yet 10 minutes
    expect((await readiness()).oldestPendingEffectSeconds).toBeGreaterThanOrEqual(0);

    // Ten minutes pass.
    await h.orm.em.fork().getConnection().execute(
      `update "request_effects" set "created_at" = "created_at" - interval '11 minutes' where "id" = ?`, [pending.id], 'run');
    const delayed = (await problems()).data.find((p) => p.requestId === id)!;
    expect(delayed).toMatchObject({ requestNumber: number, state: 'delayed', stateLabel: 'Delayed, retrying', retryOf: null });
    expect(delayed.reason).toMatch(/450/);
    expect(await dashboardCount()).toBe(1);
    expect((await readiness()).oldestPendingEffectSeconds).toBeGreaterThanOrEqual(660);

    h.sink.setRecipientRule(refuseInvalidDomains);
    await h.sink.waitFor((m) => m.subject.includes(String(number)), 60_000);
    await eventually(async () => ((await problems()).total === 0 ? true : undefined), 60_000);
    expect((await audit(id)).some((a) => a.activityType === 'Email Failed')).toBe(false);
    expect((await readiness()).oldestPendingEffectSeconds).toBeNull();
  });
});

const audit = (id: number) => h.orm.em.fork().find(RequestActivitySchema, { requestId: id });
