/**
 * Delivered means delivered: the mail server takes an email, and right then the database is away
 * (here: the audit table the "sent" mark writes to disappears for 30 s, in a database of this test's own). The email
 * is never sent a second time and never marked failed; its mark lands once the database is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestActivitySchema } from '../../db/entities';
import { ownDatabase } from '../support/own-database';
import { call, credentialingDraft, loginRequester } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';
import { activityReachedAttempt } from '../support/workflow-activities';

let h: Harness;
let database: Awaited<ReturnType<typeof ownDatabase>>;

beforeAll(async () => {
  database = await ownDatabase('delivered');
  h = await startHarness({ databaseUrl: database.url });
}, 120_000);
let workflowId: string | null = null;
afterAll(async () => {
  if (workflowId) await h.temporal.workflow.getHandle(workflowId).terminate('test over').catch(() => {});
  await h?.stop();
  await database?.drop();
});

const sql = (text: string) => h.orm.em.fork().getConnection().execute(text, [], 'run');

describe('an email the mail server took while the database went away', () => {
  it('is sent once, never marked failed, and marked sent once the database is back', async () => {
    const requester = await loginRequester(h);
    const id = await credentialingDraft(h, requester);
    let away = false;
    // The moment the mail server has the message, the audit table goes away, and only then does the worker hear
    // "250 OK" (the sink holds its answer until the rename is done: under load the worker could otherwise mark the
    // email sent first, and no second attempt would ever come).
    const unsubscribe = h.sink.subscribe(() => {
      if (away) return undefined;
      away = true;
      return sql('alter table "request_activity" rename to "request_activity_away"');
    });
    const submitted = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(submitted.status).toBe(200);
    workflowId = `request-${submitted.body.requestNumber}`;
    const subject = (await h.sink.waitFor(() => true, 30_000)).subject;
    unsubscribe();
    // Away until the first attempt has given up (its own retries, 20 s) and Temporal has scheduled the next one, which
    // must find the email already sent: the event itself, not a fixed wait.
    await activityReachedAttempt(h.temporal, workflowId, 2);
    await sql('alter table "request_activity_away" rename to "request_activity"');
    const restoredAt = Date.now();

    const sent = await eventually(async () => (await h.orm.em.fork().find(RequestActivitySchema, { requestId: id }))
      .find((a) => a.activityText.startsWith('"Submission Confirmation" email sent')), 60_000);
    expect(sent.activityText).toBe('"Submission Confirmation" email sent'); // not "possibly twice": it knew
    expect(sent.date.getTime()).toBeGreaterThanOrEqual(restoredAt - 1000); // the mark really waited for the database
    const rows = await h.orm.em.fork().find(RequestActivitySchema, { requestId: id });
    expect(rows.filter((a) => a.activityType === 'Email Failed')).toEqual([]);
    expect(h.sink.messages().filter((m) => m.subject === subject)).toHaveLength(1);
  }, 180_000);
});
