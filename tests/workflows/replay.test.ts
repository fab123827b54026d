/**
 * Saved histories of request workflows must replay on the current code: a change to the workflow or to the shared
 * lifecycle machine that would break running requests fails here (guard such changes with `patched()`).
 * Every shape is recorded by `npm run record:histories` (tests/workflows/record-histories.test.ts), which never
 * overwrites a file; v1–v4 credentialing histories were recorded by request-workflow.test.ts and
 * request-clocks.test.ts with RECORD_HISTORY=1 in their day (their writes now name v4 files, kept as recorded).
 */
import { Worker } from '@temporalio/worker';
import { loadHistory } from './history-files';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { reqIdOf } from '../../workflows/log-header';
import { COMMANDS_AND_EFFECTS_PATCH, LOCAL_READS_PATCH } from '../../workflows/request.workflow';
import { REQUEST_CLOCKS_PATCH } from '../../workflows/request-clocks';

const dir = path.join(import.meta.dirname, 'histories');

/**
 * The shapes recorded by tests/workflows/record-histories.test.ts and what each history must
 * hold: its workflow type (request workflow unless named), the updates it accepted, the activities it scheduled.
 */
const LETTER_AND_EMAIL = ['renderEffectLetter', 'sendEffectEmail'];
/** shape 6: the decision's letter and email in one activity */
const LETTER_WITH_EMAIL = ['issueLetterAndEmail'];
const SHAPES: Record<string, { type?: string; updates?: string[]; activities?: string[]; timersFired?: boolean; continuedAsNew?: boolean; continuedFrom?: boolean; reqIds?: boolean }> = {
  'v4-certificate-approved-req-ids': { updates: ['submit', 'setStatus'], activities: LETTER_AND_EMAIL, reqIds: true },
  'v4-credentialing-approved-local-reads': { updates: ['submit', 'setStatus'], activities: LETTER_AND_EMAIL },
  'v4-credentialing-reminders-auto-closed': { updates: ['submit', 'setStatus'], timersFired: true },
  'v4-certificate-rental-approved': { updates: ['submit', 'setStatus'], activities: LETTER_AND_EMAIL },
  'v4-certificate-letter-of-intent': { updates: ['submit', 'setStatus'], activities: LETTER_AND_EMAIL },
  'v4-credentialing-escalated-discussion-send-email-approved': { updates: ['submit', 'discussionPosted', 'sendEmail', 'setStatus'], timersFired: true },
  'v4-credentialing-signed-release-approved': { updates: ['submit', 'recordSignedRelease', 'setStatus'] },
  'v4-credentialing-reopened-resubmitted-approved': { updates: ['reopen', 'submit', 'setStatus'], activities: LETTER_AND_EMAIL },
  'v4-credentialing-generate-letter': { updates: ['generateLetter'], activities: ['renderEffectLetter'] },
  'v4-certificate-woken-by-policy-year-approved': { updates: ['submit', 'setStatus', 'wake'], activities: LETTER_AND_EMAIL },
  'v4-credentialing-discussions-continued-as-new': { updates: ['submit', 'discussionPosted'], continuedAsNew: true },
  'v4-credentialing-after-continue-as-new-approved': { updates: ['setStatus'], activities: LETTER_AND_EMAIL, continuedFrom: true },
  // Shape 5: the same commands, started with `shape: 5`.
  'v5-certificate-approved-req-ids': { updates: ['submit', 'setStatus'], activities: LETTER_AND_EMAIL, reqIds: true },
  'v5-certificate-rental-approved': { updates: ['submit', 'setStatus'], activities: LETTER_AND_EMAIL },
  'v5-certificate-letter-of-intent': { updates: ['submit', 'setStatus'], activities: LETTER_AND_EMAIL },
  'v5-credentialing-escalated-discussion-send-email-approved': { updates: ['submit', 'discussionPosted', 'sendEmail', 'setStatus'], timersFired: true },
  'v5-credentialing-signed-release-approved': { updates: ['submit', 'recordSignedRelease', 'setStatus'] },
  'v5-credentialing-reopened-resubmitted-approved': { updates: ['reopen', 'submit', 'setStatus'], activities: LETTER_AND_EMAIL },
  'v5-credentialing-generate-letter': { updates: ['generateLetter'], activities: ['renderEffectLetter'] },
  'v5-certificate-woken-by-policy-year-approved': { updates: ['submit', 'setStatus', 'wake'], activities: LETTER_AND_EMAIL },
  'v5-credentialing-discussions-continued-as-new': { updates: ['submit', 'discussionPosted'], continuedAsNew: true },
  'v5-credentialing-after-continue-as-new-approved': { updates: ['setStatus'], activities: LETTER_AND_EMAIL, continuedFrom: true },
  // Shape 6: the decision's letter and email in one activity.
  'v6-certificate-approved-req-ids': { updates: ['submit', 'setStatus'], activities: LETTER_WITH_EMAIL, reqIds: true },
  'v6-certificate-rental-approved': { updates: ['submit', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'v6-certificate-letter-of-intent': { updates: ['submit', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'v6-credentialing-escalated-discussion-send-email-approved': { updates: ['submit', 'discussionPosted', 'sendEmail', 'setStatus'], activities: LETTER_WITH_EMAIL, timersFired: true },
  'v6-credentialing-signed-release-approved': { updates: ['submit', 'recordSignedRelease', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'v6-credentialing-reopened-resubmitted-approved': { updates: ['reopen', 'submit', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'v6-credentialing-generate-letter': { updates: ['generateLetter'], activities: ['renderEffectLetter'] },
  'v6-certificate-woken-by-policy-year-approved': { updates: ['submit', 'setStatus', 'wake'], activities: LETTER_WITH_EMAIL },
  'v6-credentialing-discussions-continued-as-new': { updates: ['submit', 'discussionPosted'], continuedAsNew: true },
  'v6-credentialing-after-continue-as-new-approved': { updates: ['setStatus'], activities: LETTER_WITH_EMAIL, continuedFrom: true },
  // Shape 7: a resubmission emails the requester Submission Confirmation beside the administrators' Request Resubmission.
  'v7-certificate-approved-req-ids': { updates: ['submit', 'setStatus'], activities: LETTER_WITH_EMAIL, reqIds: true },
  'v7-certificate-rental-approved': { updates: ['submit', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'v7-certificate-letter-of-intent': { updates: ['submit', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'v7-credentialing-escalated-discussion-send-email-approved': { updates: ['submit', 'discussionPosted', 'sendEmail', 'setStatus'], activities: LETTER_WITH_EMAIL, timersFired: true },
  'v7-credentialing-signed-release-approved': { updates: ['submit', 'recordSignedRelease', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'v7-credentialing-reopened-resubmitted-approved': { updates: ['reopen', 'submit', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'v7-credentialing-generate-letter': { updates: ['generateLetter'], activities: ['renderEffectLetter'] },
  'v7-certificate-woken-by-policy-year-approved': { updates: ['submit', 'setStatus', 'wake'], activities: LETTER_WITH_EMAIL },
  'v7-credentialing-discussions-continued-as-new': { updates: ['submit', 'discussionPosted'], continuedAsNew: true },
  'v7-credentialing-after-continue-as-new-approved': { updates: ['setStatus'], activities: LETTER_WITH_EMAIL, continuedFrom: true },
  'v7-credentialing-additional-information-resubmitted-approved': { updates: ['submit', 'setStatus'], activities: ['sendEffectEmail', ...LETTER_WITH_EMAIL] },
  'wake-up-v1-policy-year': { type: 'wakeUpWorkflow', activities: ['findRequestsToWake', 'wakeRequest'] },
  'export-v1-done': { type: 'exportWorkflow', activities: ['writeExport'] },
  'account-email-v1-password-reset': { type: 'accountEmailWorkflow', activities: ['sendAccountEmail'] },
};

describe('replay of saved request workflow histories', async () => {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));

  it('has at least one saved history', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('covers both shapes: runs recorded before the commands-and-effects patch (v1) and after it (v2)', async () => {
    // A patch marker's details hold `{"id": "<patch>", ...}` as a base64 JSON payload.
    const marked = async (file: string) => (await loadHistory(path.join(dir, file))).events!.some((e) =>
      e.markerRecordedEventAttributes?.markerName === 'core_patch'
      && Object.values(e.markerRecordedEventAttributes.details ?? {}).some((p) => p.payloads?.some((payload) =>
        Buffer.from(payload.data as Uint8Array).toString().includes(`"id":"${COMMANDS_AND_EFFECTS_PATCH}"`))));
    const v1 = files.filter((f) => f.startsWith('v1-'));
    const v2 = files.filter((f) => f.startsWith('v2-'));
    expect(v1.length).toBeGreaterThan(0);
    expect(v2.length).toBeGreaterThan(0);
    for (const file of v1) expect(await marked(file)).toBe(false);
    for (const file of v2) expect(await marked(file)).toBe(true);
  });

  it('covers the request clocks: v2 runs recorded without them (no timers) and v3 runs with them (patch and timers)', async () => {
    const events = async (file: string) => (await loadHistory(path.join(dir, file))).events!;
    const hasClocksPatch = async (file: string) => (await events(file)).some((e) =>
      e.markerRecordedEventAttributes?.markerName === 'core_patch'
      && Object.values(e.markerRecordedEventAttributes.details ?? {}).some((p) => p.payloads?.some((payload) =>
        Buffer.from(payload.data as Uint8Array).toString().includes(`"id":"${REQUEST_CLOCKS_PATCH}"`))));
    const v2 = files.filter((f) => f.startsWith('v2-'));
    const v3 = files.filter((f) => f.startsWith('v3-'));
    expect(v3.length).toBeGreaterThan(0);
    for (const file of v2) {
      expect(await hasClocksPatch(file)).toBe(false);
      expect((await events(file)).some((e) => e.timerStartedEventAttributes)).toBe(false);
    }
    for (const file of v3) {
      expect(await hasClocksPatch(file)).toBe(true);
      expect((await events(file)).some((e) => e.timerFiredEventAttributes)).toBe(true);
    }
  });

  it('covers local reads: v1–v3 runs read the clocks\' start as an activity task, v4 runs as a local activity', async () => {
    const events = async (file: string) => (await loadHistory(path.join(dir, file))).events!;
    const hasLocalReadsPatch = async (file: string) => (await events(file)).some((e) =>
      e.markerRecordedEventAttributes?.markerName === 'core_patch'
      && Object.values(e.markerRecordedEventAttributes.details ?? {}).some((p) => p.payloads?.some((payload) =>
        Buffer.from(payload.data as Uint8Array).toString().includes(`"id":"${LOCAL_READS_PATCH}"`))));
    const scheduled = async (file: string) => (await events(file))
      .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    const localActivities = async (file: string) => (await events(file))
      .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
    const v4 = files.filter((f) => f.startsWith('v4-'));
    expect(v4.length).toBeGreaterThan(0);
    for (const file of files.filter((f) => !f.startsWith('v4-'))) expect(await hasLocalReadsPatch(file)).toBe(false);
    for (const file of v4) {
      expect(await hasLocalReadsPatch(file)).toBe(true);
      expect(await scheduled(file)).not.toContain('clockStart');
      expect(await scheduled(file)).toContain('recordStatus');
      // A run continued from another starts with the clocks' state carried over: it has nothing to read locally.
      const continued = !!(await events(file))[0].workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
      if (!continued) expect(await localActivities(file)).toBeGreaterThan(0);
    }
    for (const file of files.filter((f) => f.startsWith('v3-'))) expect(await scheduled(file)).toContain('clockStart');
  });

  it('covers shapes 5 to 7: started with it, no patch markers, one search-attribute upsert per status change, one read at the start', async () => {
    const numbered = files.filter((f) => /^v[5-7]-/.test(f));
    expect(numbered.filter((f) => f.startsWith('v5-')).length).toBeGreaterThan(0);
    expect(numbered.filter((f) => f.startsWith('v6-')).length).toBeGreaterThan(0);
    expect(numbered.filter((f) => f.startsWith('v7-')).length).toBeGreaterThan(0);
    for (const file of numbered) {
      const events = (await loadHistory(path.join(dir, file))).events!;
      const input = JSON.parse(Buffer.from(events[0].workflowExecutionStartedEventAttributes!.input!.payloads![0].data as Uint8Array).toString());
      expect(input.shape, file).toBe(Number(file[1]));
      expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch'), file).toEqual([]);
      const statusChanges = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'recordStatus').length;
      const upserts = events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes);
      // Each status change upserts once (status and clock together); a clock published alone is a clock that moved
      // without a status change (a signed release, a reminder sent), never one more per change.
      expect(upserts.filter((e) => Object.keys(e.upsertWorkflowSearchAttributesEventAttributes!.searchAttributes!.indexedFields!).includes('RequestStatus')).length, file)
        .toBe(statusChanges);
      expect(upserts.some((e) => Object.keys(e.upsertWorkflowSearchAttributesEventAttributes!.searchAttributes!.indexedFields!).includes('TemporalChangeVersion')), file).toBe(false);
      const reads = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
      const continued = !!events[0].workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
      expect(reads, file).toBe(continued ? 0 : 1);
    }
  });

  it('holds a recorded history of every shape (npm run record:histories), each with what its name says', async () => {
    for (const [name, shape] of Object.entries(SHAPES)) {
      const file = `${name}.json`;
      expect(files, `${file}: record it with npm run record:histories`).toContain(file);
      const events = (await loadHistory(path.join(dir, file))).events!;
      const seen = {
        type: events[0].workflowExecutionStartedEventAttributes?.workflowType?.name,
        updates: events.map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name).filter(Boolean),
        activities: events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean),
        timersFired: events.some((e) => e.timerFiredEventAttributes),
        continuedAsNew: events.some((e) => e.workflowExecutionContinuedAsNewEventAttributes),
        continuedFrom: !!events[0].workflowExecutionStartedEventAttributes?.continuedExecutionRunId,
      };
      expect(seen.type, file).toBe(shape.type ?? 'requestWorkflow');
      expect(seen.updates, file).toEqual(expect.arrayContaining(shape.updates ?? []));
      expect(seen.activities, file).toEqual(expect.arrayContaining(shape.activities ?? []));
      if (shape.timersFired) expect(seen.timersFired, file).toBe(true);
      expect(seen.continuedAsNew, file).toBe(!!shape.continuedAsNew);
      expect(seen.continuedFrom, file).toBe(!!shape.continuedFrom);
      if (shape.reqIds) expectReqIdsFollowCommands(events, file);
    }
  });

  /**
   * Every activity a command caused carries that command's reqId (the HTTP call's), the approval's status
   * write, letter and email included although the main loop carries the effects out; each command has its own id.
   */
  function expectReqIdsFollowCommands(events: Awaited<ReturnType<typeof loadHistory>>['events'] & object, file: string) {
    const commands = events.flatMap((e) => {
      const request = e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest;
      return request ? [{ name: request.input?.name, reqId: reqIdOf(request.input?.header?.fields as never) }] : [];
    });
    const activities = events.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      return scheduled ? [{ type: scheduled.activityType?.name, reqId: reqIdOf(scheduled.header?.fields as never) }] : [];
    });
    const approval = commands.find((c) => c.name === 'setStatus')?.reqId;
    expect(approval, `${file}: the approval's reqId`).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(commands.map((c) => c.reqId)).size, `${file}: one reqId a command`).toBe(commands.length);
    const effects = activities.some((a) => a.type === LETTER_WITH_EMAIL[0]) ? LETTER_WITH_EMAIL : LETTER_AND_EMAIL;
    for (const type of ['recordStatus', ...effects]) {
      expect(activities.filter((a) => a.type === type).map((a) => a.reqId), `${file}: ${type}`).toContain(approval);
    }
    for (const activity of activities) expect(commands.map((c) => c.reqId), `${file}: ${activity.type}`).toContain(activity.reqId);
  }

  for (const file of files) {
    it(`replays ${file} without non-determinism`, async () => {
      const history = await loadHistory(path.join(dir, file));
      // The bundle the run's workers load (global setup built it from WORKFLOW_BUNDLE_OPTIONS, the production image's
      // options): replaying with `workflowsPath` bundled the code again for every history, about a second each.
      await expect(Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, `replay-${file}`)).resolves.toBeUndefined();
    });
  }
});
