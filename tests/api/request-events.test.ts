/**
 * GET /api/v1/events over a real socket: each signed-in user hears of the requests they may see
 * (an administrator all; a requester their own), ids only, whoever made the change; a stream ends with its session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createExternalUser, credentialingDraft, login, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let owner: Session;
let other: Session;
let admin: Session;
const OTHER = { email: 'events-other@clinic.example', password: 'Other-Pass-123' };

beforeAll(async () => {
  h = await startHarness({ worker: false, listen: true, env: { EVENTS_HEARTBEAT_MS: '400', WORKFLOW_ANSWER_TIMEOUT_MS: '1000' } });
  owner = await loginRequester(h);
  await createExternalUser(h, OTHER.email, OTHER.password);
  other = await login(h, OTHER.email, OTHER.password);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

interface Stream { events: Array<{ name: string; data: { kind: string; requestId: number } }>; raw: string; ended: Promise<void>; close(): void }

/** Opens the stream the way the UI does (fetch with the Bearer header) and collects what arrives. */
async function openStream(session: Session): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${h.baseUrl}/api/v1/events`, { headers: { authorization: `Bearer ${session.token}`, accept: 'text/event-stream' }, signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const stream: Stream = { events: [], raw: '', ended: Promise.resolve(), close: () => controller.abort() };
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  stream.ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        stream.raw += value;
        const blocks = stream.raw.split('\n\n');
        stream.raw = blocks.pop()!;
        for (const block of blocks) {
          const name = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (name && data) stream.events.push({ name, data: JSON.parse(data) });
        }
      }
    } catch { /* aborted */ }
  })();
  return stream;
}

const requestEvents = (s: Stream, requestId: number) => s.events.filter((e) => e.name === 'request' && e.data.requestId === requestId);

describe('GET /api/v1/events', () => {
  it('refuses a caller without a session', async () => {
    const res = await fetch(`${h.baseUrl}/api/v1/events`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ name: 'NotAuthenticated', code: 401 });
  });

  it('tells a requester of their own requests only, and an administrator of every request, by id', async () => {
    const [ownerStream, otherStream, adminStream] = await Promise.all([openStream(owner), openStream(other), openStream(admin)]);
    try {
      const mine = await credentialingDraft(h, owner);
      const theirs = await credentialingDraft(h, other);
      // A message on the owner's request (stored before its workflow is asked; no worker runs here, so the API
      // takes it back after the timeout: the insert was an event all the same).
      await call(h, owner, 'POST', '/api/v1/discussions', { requestId: mine, topic: 'Dates', message: 'Is July fine?' });

      await eventually(async () => requestEvents(adminStream, mine).length > 0 && requestEvents(adminStream, theirs).length > 0);
      await eventually(async () => requestEvents(ownerStream, mine).some((e) => e.data.kind === 'message'));
      await eventually(async () => requestEvents(otherStream, theirs).length > 0);
      expect(requestEvents(adminStream, mine).map((e) => e.data.kind)).toEqual(expect.arrayContaining(['created', 'message']));
      expect(requestEvents(ownerStream, theirs)).toHaveLength(0);
      expect(requestEvents(otherStream, mine)).toHaveLength(0);
      // Ids only: nothing of the request itself travels.
      for (const e of [...ownerStream.events, ...adminStream.events]) expect(Object.keys(e.data).sort()).toEqual(['kind', 'requestId']);
    } finally {
      for (const s of [ownerStream, otherStream, adminStream]) s.close();
    }
  });

  it('hears an audit row (a letter or an email the workflow wrote) as an activity event, so pages need not poll', async () => {
    const stream = await openStream(owner);
    try {
      const id = await credentialingDraft(h, owner);
      await h.orm.em.fork().getConnection().execute(
        `insert into request_activity (request_id, date, activity_type, activity_text, performed_by, created_at, updated_at) values (${id}, now(), 'Document', 'Letter stored', 'System', now(), now())`);
      await eventually(async () => requestEvents(stream, id).some((e) => e.data.kind === 'activity'));
    } finally {
      stream.close();
    }
  });

  it('hears a status change made straight in the database (any writer), and ends the stream at logout', async () => {
    const second = await login(h, OTHER.email, OTHER.password);
    const stream = await openStream(second);
    const id = await credentialingDraft(h, second);
    await h.orm.em.fork().getConnection().execute(`update requests set status = 'Submitted', request_number = ${880_000 + id} where id = ${id}`);
    await eventually(async () => requestEvents(stream, id).some((e) => e.data.kind === 'status'));

    const out = await call(h, second, 'DELETE', '/api/v1/authentication');
    expect(out.status).toBe(200);
    await stream.ended; // the next heartbeat finds the session gone and closes the stream
    expect(stream.events.at(-1)?.name).toBe('session-ended');
  });
});
