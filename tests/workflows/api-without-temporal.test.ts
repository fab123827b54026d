/**
 * The API starts without Temporal and reconnects by itself: sign-in, lists and
 * reads answer; readiness says Temporal is down without failing; a submit answers 503 in the spec's shape and keeps
 * the draft; once Temporal and a worker are up, the same submit goes through, with no restart of the API.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createMailer } from '../../activities/mailer';
import { RequestSchema } from '../../db/entities';
import { ensureTemporalServer, freePort, type TemporalServerHandle } from '../../devtools/temporal/dev-server';
import { createRequestWorker, type RequestWorkers } from '../../worker/request-worker';
import { call, credentialingDraft, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let address: string;
let server: TemporalServerHandle | null = null;
let worker: RequestWorkers | null = null;
let running: Promise<void> | null = null;

beforeAll(async () => {
  address = `127.0.0.1:${await freePort()}`; // nothing listens there yet
  h = await startHarness({ worker: false, env: { TEMPORAL_ADDRESS: address, WORKFLOW_ANSWER_TIMEOUT_MS: '2000' } });
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await h?.stop();
  await server?.stop();
});

const ready = async () => (await h.app.inject({ method: 'GET', url: '/api/v1/health/ready' })).json();

describe('the API while Temporal is down', () => {
  let requester: Session;
  let id: number;

  it('signs in, lists and reads; readiness reports Temporal down without failing', async () => {
    requester = await loginRequester(h);
    id = await credentialingDraft(h, requester);
    expect((await call(h, requester, 'GET', '/api/v1/requests')).status).toBe(200);
    expect((await call(h, requester, 'GET', `/api/v1/requests/${id}`)).status).toBe(200);
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready', database: 'up', temporal: 'down' });
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  });

  it('answers a submit 503 in the spec\'s shape and keeps the draft', async () => {
    const refused = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ name: 'Unavailable', code: 503, className: 'unavailable' });
    expect((await h.orm.em.fork().findOneOrFail(RequestSchema, id)).status).toBe('Draft');
  });

  it('takes the same submit once Temporal and a worker are up, without a restart', async () => {
    server = await ensureTemporalServer({ address });
    worker = await createRequestWorker({
      address, namespace: h.config.temporalNamespace, taskQueue: h.config.taskQueue,
      deps: { orm: h.orm, mailer: createMailer(h.config.smtpUrl!), pdf: h.pdf, files: h.files, config: h.config },
      workflowBundlePath: inject('workflowBundlePath'),
    });
    running = worker.run();
    await eventually(async () => ((await ready()).temporal === 'up' ? true : undefined), 30_000);
    const submitted = await eventually(async () => {
      const res = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
      return res.status === 200 ? res : undefined;
    }, 30_000);
    expect(submitted.body).toMatchObject({ id, status: 'Submitted' });
  });
});
