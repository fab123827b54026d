/**
 * Saved histories of the workflows must replay on the current code: a change to a workflow or to the shared
 * lifecycle machine that would break running workflows fails here (guard such changes with `patched()`, as
 * docs/OPERATIONS.md "The first change to a workflow after a release" says). The histories are recorded by
 * `npm run record:histories` (tests/workflows/record-histories.test.ts), which never overwrites a file.
 */
import { Worker } from '@temporalio/worker';
import { loadHistory } from './history-files';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { reqIdOf } from '../../workflows/log-header';

const dir = path.join(import.meta.dirname, 'histories');

/**
 * The histories record-histories.test.ts records and what each must hold: its workflow type (request workflow unless
 * named), the updates it accepted, the activities it scheduled. `base-`: the request workflow as released.
 */
/** a decision's letter and its email: one activity on the letters queue */
const LETTER_WITH_EMAIL = ['issueLetterAndEmail'];
const RECORDED: Record<string, { type?: string; updates?: string[]; activities?: string[]; timersFired?: boolean; continuedAsNew?: boolean; continuedFrom?: boolean; reqIds?: boolean }> = {
  'base-certificate-rental-approved': { updates: ['submit', 'setStatus'], activities: LETTER_WITH_EMAIL, reqIds: true },
  'base-certificate-letter-of-intent': { updates: ['submit', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'base-certificate-revoked': { updates: ['revokeCertificate'], activities: ['revokeCertificate', 'sendEffectEmail'] },
  'base-credentialing-escalated-discussion-send-email-approved': { updates: ['submit', 'discussionPosted', 'sendEmail', 'setStatus'], activities: ['recordClockEffect', ...LETTER_WITH_EMAIL], timersFired: true },
  'base-credentialing-reminders-auto-closed': { updates: ['submit', 'setStatus'], activities: ['recordClockEffect', 'recordStatus', 'sendEffectEmail'], timersFired: true },
  'base-credentialing-signed-release-approved': { updates: ['submit', 'recordSignedRelease', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'base-credentialing-reopened-resubmitted-approved': { updates: ['reopen', 'submit', 'setStatus'], activities: LETTER_WITH_EMAIL },
  'base-credentialing-additional-information-resubmitted-approved': { updates: ['submit', 'setStatus'], activities: ['sendEffectEmail', ...LETTER_WITH_EMAIL] },
  'base-credentialing-generate-letter': { updates: ['generateLetter'], activities: ['renderEffectLetter', 'finishLetterEffect'] },
  'base-certificate-woken-by-policy-year-approved': { updates: ['submit', 'setStatus', 'wake'], activities: LETTER_WITH_EMAIL },
  'base-credentialing-discussions-continued-as-new': { updates: ['submit', 'discussionPosted'], continuedAsNew: true },
  'base-credentialing-after-continue-as-new-approved': { updates: ['setStatus'], activities: LETTER_WITH_EMAIL, continuedFrom: true },
  'base-credentialing-admin-save-approved': { updates: ['submit', 'adminSave'], activities: ['recordSignedRelease', 'recordStatus', ...LETTER_WITH_EMAIL] },
  'base-credentialing-admin-fields-then-approved': { updates: ['submit', 'adminSave'], activities: ['recordAdminFields', 'recordStatus', ...LETTER_WITH_EMAIL] },
  // behind patched('instant-certificates'): the decision after the submit, the rule's approval
  'instant-certificates-certificate-instant-issue': { updates: ['submit'], activities: ['recordStatus', 'decideInstant', 'recordStatus', 'sendEffectEmail', ...LETTER_WITH_EMAIL] },
  'base-certificate-asked-renewal': { updates: ['askRenewal'], activities: ['askRenewal', 'sendEffectEmail'] },
  'base-certificate-renewed': { updates: ['renew'], activities: ['renewCertificate', ...LETTER_WITH_EMAIL] },
  'renewal-run-asked-renewed': { type: 'renewalRunWorkflow', activities: ['loadRenewalRun', 'askRenewalBatch', 'countAwaitedAnswers', 'closeRenewalQuestions', 'renewBatch', 'finishRenewalRun'] },
  'wake-up-policy-year': { type: 'wakeUpWorkflow', activities: ['findRequestsToWake', 'wakeRequest'] },
  'wake-up-sweep': { type: 'wakeUpSweepWorkflow', activities: ['findRequestsToWake'] },
  'inbound-mail-posted': { type: 'inboundMailWorkflow', activities: ['processInboundMessage'] },
  'export-done': { type: 'exportWorkflow', activities: ['writeExport'] },
  'instant-digest': { type: 'instantDigestWorkflow', activities: ['sendInstantDigest'] },
  'account-email-password-reset': { type: 'accountEmailWorkflow', activities: ['sendAccountEmail'] },
};

describe('replay of saved request workflow histories', async () => {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));

  it('has at least one saved history', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('holds the request workflow as released: no patch markers, one search-attribute upsert per status change, one read at a run\'s start', async () => {
    const base = files.filter((f) => f.startsWith('base-'));
    expect(base.length).toBeGreaterThan(0);
    for (const file of base) {
      const events = (await loadHistory(path.join(dir, file))).events!;
      expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch'), file).toEqual([]);
      const statusChanges = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'recordStatus').length;
      const upserts = events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes);
      // Each status change upserts once (status and clock together); a clock published alone is a clock that moved
      // without a status change (a signed release, a reminder sent), never one more per change.
      expect(upserts.filter((e) => Object.keys(e.upsertWorkflowSearchAttributesEventAttributes!.searchAttributes!.indexedFields!).includes('RequestStatus')).length, file)
        .toBe(statusChanges);
      // The run's one local activity (runStart); a run continued from another has its state carried over.
      const reads = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
      const continued = !!events[0].workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
      expect(reads, file).toBe(continued ? 0 : 1);
    }
  });

  it('holds each recorded history (npm run record:histories), with what its name says', async () => {
    for (const [name, shape] of Object.entries(RECORDED)) {
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
   * Every activity a command caused carries that command's reqId (the HTTP call's), the approval's status write,
   * letter and email included although the main loop carries the effects out; each command has its own id.
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
    for (const type of ['recordStatus', ...LETTER_WITH_EMAIL]) {
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
