/**
 * Chromium absent, then present: an approval whose letter cannot be printed because no browser is
 * installed waits, retrying, without a failure row; once Chromium is there, the letter is printed and the approval
 * email goes out with it, without anyone pressing anything.
 */
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestActivitySchema } from '../../db/entities';
import { call, credentialingDraft, loginAdmin, loginRequester } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';
import { LETTER_CHROMIUM_PATH } from '../../config/app-config';
import { activityReachedAttempt } from '../support/workflow-activities';

const realChromium = process.env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH;
let h: Harness;
let folder: string;
let chromiumPath: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'coi-no-chromium-'));
  chromiumPath = path.join(folder, 'chromium'); // nothing there yet: "Chromium not found"
  h = await startHarness({ env: { CHROMIUM_PATH: chromiumPath } });
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await rm(folder, { recursive: true, force: true });
});

describe('Chromium absent, then present', () => {
  it('the approval letter waits without failing, then goes out with its email once Chromium is installed', async () => {
    const requester = await loginRequester(h);
    const admin = await loginAdmin(h);
    const id = await credentialingDraft(h, requester);
    const submitted = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(submitted.status).toBe(200);
    const number = submitted.body.requestNumber as number;
    const approved = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Approved', verified: true });
    expect(approved.status).toBe(200);

    const audit = async () => h.orm.em.fork().find(RequestActivitySchema, { requestId: id }, { orderBy: { id: 'asc' } });
    await activityReachedAttempt(h.temporal, `request-${number}`, 4); // several attempts (1, 2, 4 s apart) found no browser
    expect(h.sink.messages().filter((m) => m.subject.includes(`${number} approved`))).toEqual([]);
    expect((await audit()).filter((a) => /Failed/.test(a.activityType))).toEqual([]);

    await symlink(realChromium, chromiumPath); // "apt-get install chromium"
    const mail = await h.sink.waitFor((m) => m.subject.includes(`${number} approved`), 90_000);
    expect(mail.attachments.map((a) => a.contentType)).toContain('application/pdf');
    expect((await audit()).filter((a) => /Failed/.test(a.activityType))).toEqual([]);
    expect(h.sink.messages().filter((m) => m.subject === mail.subject)).toHaveLength(1);
  }, 180_000);
});
