/**
 * With no worker running, a submit cannot complete: the requester hears 503 once the API's deadline for the worker's
 * answer passes (its message says so) and nothing is lost. Once a
 * worker runs, the submit Temporal kept and the requester's retry make one submission: same number, one email.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createMailer } from '../../activities/mailer';
import { RequestSchema } from '../../db/entities';
import { createRequestWorker, type RequestWorkers } from '../../worker/request-worker';
import { NO_ANSWER_MESSAGE } from '../../services/requests/request-workflow-client';
import { call, credentialingDraft, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';
import { activitiesSettled } from '../support/workflow-activities';

let h: Harness;
let requester: Session;
let worker: RequestWorkers | null = null;
let running: Promise<void> | null = null;

beforeAll(async () => {
  h = await startHarness({ worker: false, env: { WORKFLOW_ANSWER_TIMEOUT_MS: '2000' } });
  requester = await loginRequester(h);
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await h?.stop();
});

describe('submitting while no worker runs', () => {
  it('answers 503 Unavailable within the deadline, keeps the draft, and succeeds once a worker is back', async () => {
    const id = await credentialingDraft(h, requester);
    const refused = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(refused.status).toBe(503); // NO_ANSWER_MESSAGE is the answer of the deadline, not of an error
    expect(refused.body).toMatchObject({ name: 'Unavailable', code: 503, message: NO_ANSWER_MESSAGE });
    const kept = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(kept.status).toBe('Draft');
    expect(kept.lastName).toBe('Nguyen');
    const number = kept.requestNumber;
    expect(number).toBeGreaterThanOrEqual(50001);

    const mailer = createMailer(h.sink.url);
    worker = await createRequestWorker({
      address: h.config.temporalAddress, namespace: h.config.temporalNamespace, taskQueue: h.config.taskQueue,
      deps: { orm: h.orm, mailer, pdf: h.pdf, files: h.files, config: h.config },
      workflowBundlePath: inject('workflowBundlePath'),
    });
    running = worker.run();

    // The requester presses Submit again until it goes through: on a loaded machine the returning worker's first
    // workflow task and activities may outlast one 2 s answer deadline. Every press is the same update.
    let retried = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    for (let press = 1; retried.status === 503 && press < 10; press++) {
      retried = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    }
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'Submitted', requestNumber: number });
    await h.sink.waitFor((m) => m.subject.includes(String(number)), 60_000);
    await activitiesSettled(h.temporal, `request-${number}`); // a late duplicate would have arrived by now
    expect(h.sink.messages().filter((m) => m.subject.includes(`Request ${number} received`))).toHaveLength(1);
    mailer.close();
  });
});
