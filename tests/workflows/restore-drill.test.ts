/**
 * The restore drill: PostgreSQL is the source of truth, so a `pg_dump` of a running portal,
 * restored into a fresh database beside a fresh, empty Temporal, carries on every open request:
 *   - taken while the mail server is away: the requests' confirmation emails are still owed (pending effects) and
 *     their escalation clocks are running;
 *   - restored with pg_restore into a new database; a new Temporal server with no history at all;
 *   - `admin resume` (services/requests/resume-requests.ts) re-creates the open requests' workflows from PostgreSQL: the owed
 *     emails go out once each, the clocks are armed again (the escalation email arrives), a draft stays a draft, and
 *     the next command (an approval) works with its letter.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestEffectSchema, RequestSchema } from '../../db/entities';
import { dropDatabase, ensureDatabase } from '../../db/database';
import { ensureTemporalServer, freePort, type TemporalServerHandle } from '../../devtools/temporal/dev-server';
import { resumeRequests, type ResumeReport } from '../../services/requests/resume-requests';
import { requestWorkflowId } from '../../workflows/request.messages';
import { call, credentialingDraft, loginAdmin, loginRequester } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { ownDatabase } from '../support/own-database';
import { startHarness, type Harness } from '../support/portal-harness';
import { activitiesSettled } from '../support/workflow-activities';

/** Escalation after 3 business days of 2 s each: well after the dump, soon after the restore. */
const CLOCKS = { CLOCK_DAY_SECONDS: '2', ESCALATION_BUSINESS_DAYS: '3', REMINDER_BUSINESS_DAYS: '40,41', AUTO_CLOSE_BUSINESS_DAYS: '60' };

let source: Harness;
let sourceDb: Awaited<ReturnType<typeof ownDatabase>>;
let restoredUrl: string;
let temporal: TemporalServerHandle;
let restored: Harness;
let dumpDir: string;
let report: ResumeReport;
const submitted: Array<{ id: number; number: number }> = [];
let draftId: number;

beforeAll(async () => {
  // The running portal, with its mail server away: confirmations stay owed.
  sourceDb = await ownDatabase('restore_src');
  source = await startHarness({ databaseUrl: sourceDb.url, env: { ...CLOCKS, SMTP_URL: `smtp://127.0.0.1:${await freePort()}` } });
  const requester = await loginRequester(source);
  for (let i = 0; i < 2; i += 1) {
    const id = await credentialingDraft(source, requester);
    const res = await call(source, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    submitted.push({ id, number: res.body.requestNumber });
  }
  draftId = await credentialingDraft(source, requester);

  // The backup, taken while it runs; then the restore into a new database.
  dumpDir = await mkdtemp(path.join(os.tmpdir(), 'coi-restore-'));
  const dump = path.join(dumpDir, 'portal.dump');
  execFileSync('pg_dump', ['--format=custom', `--file=${dump}`, `--dbname=${sourceDb.url}`]);
  await source.stop();
  const url = new URL(sourceDb.url);
  url.pathname = `${url.pathname}_restored`;
  restoredUrl = url.toString();
  await ensureDatabase(restoredUrl);
  execFileSync('pg_restore', ['--no-owner', `--dbname=${restoredUrl}`, dump]);

  // A fresh, empty Temporal and the portal on the restored database; then resume.
  temporal = await ensureTemporalServer({ address: `127.0.0.1:${await freePort()}` });
  restored = await startHarness({ databaseUrl: restoredUrl, temporalAddress: temporal.address, env: CLOCKS });
  report = await resumeRequests(restored.temporal, restored.orm.em.fork(), restored.config.taskQueue);
}, 240_000);

afterAll(async () => {
  await restored?.stop();
  await temporal?.stop();
  await sourceDb?.drop();
  if (restoredUrl) await dropDatabase(restoredUrl).catch(() => {});
  if (dumpDir) await rm(dumpDir, { recursive: true, force: true });
});

describe('the restore drill', () => {
  it('found what the backup owed: two open requests with their confirmations pending', async () => {
    const owed = await restored.orm.em.fork().find(RequestEffectSchema, { requestId: { $in: submitted.map((s) => s.id) }, state: 'pending' });
    expect(owed.length).toBeGreaterThanOrEqual(2);
    expect(report).toMatchObject({ requests: 2, requestsStarted: 2 });
  });

  it('sends each owed email once, from the restored portal', async () => {
    for (const { number } of submitted) await restored.sink.waitFor((m) => m.subject.includes(String(number)) && /received|submitted/i.test(m.subject), 60_000);
    // A second copy would have gone out by now: the workflows have no email left to send.
    for (const { number } of submitted) await activitiesSettled(restored.temporal, `request-${number}`);
    for (const { number } of submitted) {
      expect(restored.sink.messages().filter((m) => m.subject.includes(String(number)) && /received|submitted/i.test(m.subject))).toHaveLength(1);
    }
  });

  it('arms the clocks again: the escalation email of a request waiting for review arrives', async () => {
    for (const { number } of submitted) await restored.sink.waitFor((m) => m.subject === `Request ${number} is waiting for review`, 90_000);
  });

  it('leaves a draft alone, and takes the next command as if nothing happened', async () => {
    await expect(restored.temporal.workflow.getHandle(`request-${(await restored.orm.em.fork().findOneOrFail(RequestSchema, draftId)).requestNumber}`).describe()).rejects.toThrow();
    const admin = await loginAdmin(restored);
    const [first] = submitted;
    const approved = await call(restored, admin, 'PATCH', `/api/v1/requests/${first.id}`, { status: 'Approved', verified: true });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const mail = await restored.sink.waitFor((m) => m.subject.includes(`${first.number} approved`), 60_000);
    expect(mail.attachments.map((a) => a.contentType)).toContain('application/pdf');
    await eventually(async () => ((await restored.temporal.workflow.getHandle(requestWorkflowId(first.number)).describe()).status.name === 'COMPLETED' ? true : undefined), 30_000);
    // Running it again changes nothing: the remaining open request's run exists.
    expect(await resumeRequests(restored.temporal, restored.orm.em.fork(), restored.config.taskQueue)).toMatchObject({ requests: 1, requestsStarted: 0 });
  });
});
