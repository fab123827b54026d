/**
 * Uploads under bursts, against the real PostgreSQL: the day's quota reserved before the file is read (a burst of
 * concurrent uploads cannot all pass one check), at most 2 uploads in progress per user, and files that stream to disk
 * (an oversize or abandoned upload leaves no partial file, no place and no reserved bytes behind).
 *
 * Uploads are held open mid-body (the payload is a stream the test ends when it chooses), so the uploads really are
 * in progress at once; the test waits for what the server did (places taken, refusals answered), never for a clock.
 */
import { randomUUID } from 'node:crypto';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { quotaMessage, QUOTAS, uploadTooLargeMessage, UPLOADS_AT_ONCE_RETRY_AFTER_S } from '../../domain';
import { partNameOf, sweepExpiredUploadSlots } from '../../services/documents/uploads';
import { SAMPLE_PDF, call, createExternalUser, login, type Session } from '../support/api-helpers';
import { DEFAULT_QUOTAS_ENV, startHarness, type Harness } from '../support/portal-harness';

const MAX_UPLOAD_BYTES = 256 * 1024;
const RACE_QUOTA_MB = 1;

/** The portal's defaults (2 uploads at once), with a small size limit so an oversize file is quick to send. */
let h: Harness;
/** A day's quota of 1 MB and room for the whole burst at once, so only the quota decides. */
let race: Harness;
beforeAll(async () => {
  [h, race] = await Promise.all([
    startHarness({ worker: false, env: { ...DEFAULT_QUOTAS_ENV, UPLOAD_MAX_BYTES: String(MAX_UPLOAD_BYTES) } }),
    startHarness({ worker: false, env: { ...DEFAULT_QUOTAS_ENV, UPLOAD_MB_PER_DAY_QUOTA: String(RACE_QUOTA_MB), UPLOADS_AT_ONCE: '10' } }),
  ]);
});
afterAll(async () => { await Promise.all([h?.stop(), race?.stop()]); });

const sql = async <T = Record<string, unknown>>(app: Harness, text: string, params: unknown[] = []) =>
  app.orm.em.fork().getConnection().execute(text, params, 'all') as Promise<T[]>;
const slotsOf = async (app: Harness, session: Session) =>
  Number((await sql<{ n: string }>(app, 'select count(*) as n from upload_slots where user_id = ?', [session.user.id]))[0].n);
const partFiles = async (app: Harness) => (await readdir(app.files.dir)).filter((name) => name.endsWith('.part'));

let accounts = 0;
/** A requester of their own (the limits are per user) with a draft to upload to. */
async function uploader(app: Harness): Promise<{ session: Session; requestId: number }> {
  accounts += 1;
  const email = `uploads-${Date.now()}-${accounts}@clinic.example`;
  await createExternalUser(app, email, 'Uploads-Pass1');
  const session = await login(app, email, 'Uploads-Pass1');
  const draft = await call(app, session, 'POST', '/api/v1/requests', { requestType: 'certificate' });
  return { session, requestId: draft.body.id as number };
}

/** A PDF of `size` bytes (the sample, padded). */
const pdfOf = (size: number) => Buffer.concat([SAMPLE_PDF, Buffer.alloc(size - SAMPLE_PDF.length, 0x20)]);

interface HeldUpload {
  /** settles when the server answers (early for a refusal) */
  response: Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }>;
  answered: () => boolean;
  /** sends the rest of the body */
  finish: () => void;
  /** the sender goes away mid-file */
  abort: () => void;
}

/**
 * An upload whose body stops after `sentFirst` bytes of the file until `finish()`: the server has the request id and
 * the start of the file, declared Content-Length and all, as from a browser on a slow line.
 */
function heldUpload(app: Harness, session: Session, requestId: number, file: Buffer, sentFirst: number): HeldUpload {
  const boundary = `----held${Math.random().toString(16).slice(2)}`;
  const head = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="requestId"\r\n\r\n${requestId}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    file.subarray(0, sentFirst),
  ]);
  const tail = Buffer.concat([file.subarray(sentFirst), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const body = new PassThrough();
  body.write(head);
  let done = false;
  const response = Promise.resolve(app.app.inject({
    method: 'POST', url: '/api/v1/upload', payload: body,
    headers: {
      authorization: `Bearer ${session.token}`, 'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + tail.length),
    },
  })).then((res) => ({ status: res.statusCode, body: res.json(), headers: res.headers }))
    .finally(() => { done = true; });
  return {
    response, answered: () => done,
    finish: () => { if (!body.writableEnded) body.end(tail); },
    abort: () => body.destroy(new Error('the sender went away')),
  };
}

const WAIT = { timeout: 30_000, interval: 50 };

describe('the day\'s upload quota under a burst', () => {
  it('accepts exactly the concurrent uploads that fit, never stores more than the quota and leaves nothing reserved', async () => {
    const { session, requestId } = await uploader(race);
    const quota = RACE_QUOTA_MB * 1024 * 1024;
    const file = pdfOf(300 * 1024); // 3 fit in 1 MB (with their multipart framing), 4 do not
    const burst = Array.from({ length: 6 }, () => heldUpload(race, session, requestId, file, 1024));
    // Every upload has either taken its place (bytes reserved) or been refused, while none of them has finished.
    await vi.waitFor(async () => {
      expect(await slotsOf(race, session) + burst.filter((u) => u.answered()).length).toBe(6);
    }, WAIT);
    expect(await slotsOf(race, session)).toBe(3);
    const refused = await Promise.all(burst.filter((u) => u.answered()).map((u) => u.response));
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body).toMatchObject({ name: 'TooManyRequests', code: 429, message: quotaMessage.uploadBytesPerDay(quota), data: { quota: 'uploadBytesPerDay' } });
    }
    for (const upload of burst) upload.finish();
    const answers = await Promise.all(burst.map((u) => u.response));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 201).every((a) => a.body.size === file.length)).toBe(true);

    const [stored] = await sql<{ bytes: string; n: string }>(race, 'select sum(size) as bytes, count(*) as n from uploads where user_id = ?', [session.user.id]);
    expect(Number(stored.n)).toBe(3);
    expect(Number(stored.bytes)).toBe(3 * file.length);
    expect(Number(stored.bytes)).toBeLessThanOrEqual(quota);
    expect(await slotsOf(race, session)).toBe(0);
    expect(await partFiles(race)).toEqual([]);
    // What is left of the day still serves a small file: the reservations were settled to the real sizes.
    const small = heldUpload(race, session, requestId, SAMPLE_PDF, 10);
    small.finish();
    expect((await small.response).status).toBe(201);
  });
});

describe('uploads in progress at once', () => {
  it(`refuses a user's 3rd upload in progress with a 429 and Retry-After, and takes the next once one has finished`, async () => {
    const { session, requestId } = await uploader(h);
    const file = pdfOf(64 * 1024);
    const three = Array.from({ length: 3 }, () => heldUpload(h, session, requestId, file, 1024));
    await vi.waitFor(async () => {
      expect(await slotsOf(h, session) + three.filter((u) => u.answered()).length).toBe(3);
    }, WAIT);
    expect(await slotsOf(h, session)).toBe(2);
    const [refused] = await Promise.all(three.filter((u) => u.answered()).map((u) => u.response));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(UPLOADS_AT_ONCE_RETRY_AFTER_S));
    expect(refused.body).toMatchObject({
      name: 'TooManyRequests', code: 429, message: quotaMessage.uploadsAtOnce(QUOTAS.uploadsAtOnce),
      data: { quota: 'uploadsAtOnce', limit: 2, retryAfterSeconds: UPLOADS_AT_ONCE_RETRY_AFTER_S },
    });
    // Another user is not held back by this one's uploads.
    const other = await uploader(h);
    const theirs = heldUpload(h, other.session, other.requestId, SAMPLE_PDF, 10);
    theirs.finish();
    expect((await theirs.response).status).toBe(201);

    for (const upload of three) upload.finish();
    expect((await Promise.all(three.map((u) => u.response))).map((a) => a.status).sort()).toEqual([201, 201, 429]);
    expect(await slotsOf(h, session)).toBe(0);
    const next = heldUpload(h, session, requestId, file, 1024);
    next.finish();
    expect((await next.response).status).toBe(201);
  });
});

describe('uploads in progress of a process that died', () => {
  it('hold their places only until they run out; housekeeping then removes the places and their partial files', async () => {
    const { session, requestId } = await uploader(h);
    // Two places taken by a process that died mid-upload, as it left them: rows and partial files.
    const dead = [randomUUID(), randomUUID()];
    for (const id of dead) {
      await sql(h, `insert into upload_slots (id, user_id, bytes, expires_at) values (?, ?, ?, now() + interval '1 hour')`, [id, session.user.id, 1000]);
      await writeFile(h.files.pathOf(partNameOf({ id })), 'half a file');
    }
    const refused = heldUpload(h, session, requestId, SAMPLE_PDF, 10);
    refused.finish();
    expect((await refused.response).status).toBe(429);
    // Their time runs out.
    await sql(h, `update upload_slots set expires_at = now() - interval '1 second' where id in (?, ?)`, dead);
    const taken = heldUpload(h, session, requestId, SAMPLE_PDF, 10);
    taken.finish();
    expect((await taken.response).status).toBe(201);
    expect(await sweepExpiredUploadSlots(h.orm.em.fork(), (name) => h.files.remove(name))).toBe(2);
    expect(await slotsOf(h, session)).toBe(0);
    expect(await partFiles(h)).toEqual([]);
  });
});

describe('uploads stream to disk', () => {
  it('refuses a file past the size limit with a 413 once it has streamed that far, and removes the partial file', async () => {
    const { session, requestId } = await uploader(h);
    const file = pdfOf(MAX_UPLOAD_BYTES + 64 * 1024);
    const upload = heldUpload(h, session, requestId, file, MAX_UPLOAD_BYTES - 64 * 1024);
    // The first part of the file is on disk while the rest has not been sent: it is not gathered in memory.
    await vi.waitFor(async () => {
      const [part] = await partFiles(h);
      expect(part).toBeDefined();
      expect((await stat(`${h.files.dir}/${part}`)).size).toBeGreaterThan(0);
    }, WAIT);
    expect(await slotsOf(h, session)).toBe(1);
    upload.finish();
    const answer = await upload.response;
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({
      name: 'PayloadTooLarge', message: uploadTooLargeMessage(MAX_UPLOAD_BYTES), code: 413, className: 'payload-too-large', data: {}, errors: {},
    });
    expect(await partFiles(h)).toEqual([]);
    expect(await slotsOf(h, session)).toBe(0);
    expect(await sql(h, 'select 1 from uploads where user_id = ?', [session.user.id])).toEqual([]);
  });

  it('gives back the place and removes the partial file when the sender goes away mid-file', async () => {
    const { session, requestId } = await uploader(h);
    const upload = heldUpload(h, session, requestId, pdfOf(128 * 1024), 32 * 1024);
    await vi.waitFor(async () => { expect(await partFiles(h)).toHaveLength(1); }, WAIT);
    upload.abort();
    await upload.response.catch(() => undefined);
    await vi.waitFor(async () => {
      expect(await partFiles(h)).toEqual([]);
      expect(await slotsOf(h, session)).toBe(0);
    }, WAIT);
    expect(await sql(h, 'select 1 from uploads where user_id = ?', [session.user.id])).toEqual([]);
  });
});
