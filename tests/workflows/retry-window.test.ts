/**
 * Outages are waited out, not failed, with the days compressed: a mail server that refuses
 * connections for a while, then accepts, gets exactly one copy of the email and leaves no failure row; one that stays
 * away past the retry window (EFFECT_RETRY_WINDOW_HOURS) fails the email visibly, saying how long it tried.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { RequestActivitySchema } from '../../db/entities';
import { startSmtpSink, type SmtpSink } from '../../devtools/smtp-sink';
import { freePort } from '../../devtools/temporal/dev-server';
import { call, credentialingDraft, loginRequester } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';
import { activitiesSettled, activityReachedAttempt } from '../support/workflow-activities';

const harnesses: Harness[] = [];
let lateSink: SmtpSink | null = null;
afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.stop()));
  await lateSink?.close();
});

async function submitWithMailAt(env: Record<string, string>) {
  const h = await startHarness({ env });
  harnesses.push(h);
  const requester = await loginRequester(h);
  const id = await credentialingDraft(h, requester);
  const submitted = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
  expect(submitted.status).toBe(200);
  const audit = async () => h.orm.em.fork().find(RequestActivitySchema, { requestId: id }, { orderBy: { id: 'asc' } });
  return { h, id, number: submitted.body.requestNumber as number, audit };
}

describe('a mail server away for a while', () => {
  it('is waited out: once it accepts, the email goes out once, and no failure is recorded', async () => {
    const port = await freePort();
    const { h, number, audit } = await submitWithMailAt({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    // Refused for several attempts (1, 2, 4 s apart), longer than the old policy's first minutes would have mattered.
    await activityReachedAttempt(h.temporal, `request-${number}`, 3);
    expect((await audit()).some((a) => a.activityType === 'Email Failed')).toBe(false);
    lateSink = await startSmtpSink({ port });
    const mail = await lateSink.waitFor((m) => m.subject.includes(String(number)), 60_000);
    expect(mail.subject).toContain(String(number));
    await eventually(async () => ((await audit()).some((a) => a.activityText.startsWith('"Submission Confirmation" email sent')) ? true : undefined), 60_000);
    await activitiesSettled(h.temporal, `request-${number}`); // a second copy would have gone out by now
    expect(lateSink.messages().filter((m) => m.subject === mail.subject)).toHaveLength(1);
    expect((await audit()).some((a) => a.activityType === 'Email Failed')).toBe(false);
  });

  it('fails visibly once it has been away longer than the retry window, saying how long it tried', async () => {
    const port = await freePort();
    const { audit } = await submitWithMailAt({ SMTP_URL: `smtp://127.0.0.1:${port}`, EFFECT_RETRY_WINDOW_HOURS: '0.001' }); // 3.6 s
    const failed = await eventually(async () => (await audit()).find((a) => a.activityType === 'Email Failed'), 40_000);
    expect(failed.activityText).toMatch(/^"Submission Confirmation" email failed: .*still failing after \d+ s of retrying\)$/);
    expect(failed.effectId).toBeTruthy(); // Send again is offered
  });
});
