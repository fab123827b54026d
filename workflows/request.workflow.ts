/**
 * One durable workflow per submitted request (`request-<requestNumber>`). It owns the request's status: the
 * lifecycle machine in domain/ decides every change; activities persist it and carry out what it owes (letters,
 * emails), each keyed `<workflowId>:<runId>:<seq>` so a retry never repeats an effect and no key repeats in
 * another run.
 *
 * - Commands (submit, status, reopen, send an email) are updates whose id derives from the command: a repeat is
 *   de-duplicated by Temporal, or answered from `lastCommandId` when it reaches a later run.
 * - An update returns once PostgreSQL has the new status and, in the same transaction, the effect it owes with a
 *   snapshot of the request (emails and letters say what was true at the change, whatever is edited later).
 * - Effects go out one after another from the main loop, each with a bounded retry; a permanent failure (bad
 *   address, SMTP 5xx, retries exhausted) becomes an `Email Failed` audit row the administrator can send again,
 *   and the next effect goes out. Heartbeats notice a dead worker within seconds.
 * - The workflow ends when the request is finished and owes nothing. Any later command re-creates it from
 *   PostgreSQL (update-with-start, api/services/request-workflows.ts); a new run first takes over the effects an
 *   earlier run left pending (terminated, reset).
 */
import {
  ActivityFailure, ApplicationFailure, allHandlersFinished, condition, continueAsNew, log, patched, proxyActivities,
  proxyLocalActivities, setHandler, upsertSearchAttributes, workflowInfo, type ActivityOptions,
} from '@temporalio/workflow';
import type { EffectRef, RequestActivities } from './request-activities.types';
// Straight from the domain files, not the barrel: every new run evaluates the bundle's modules again, and the barrel
// would bring the whole domain (forms, registration, admin desk) into each submit's workflow.
import { applyLifecycleEvent, type LifecycleEvent } from '../domain/request-lifecycle.machine';
import { LETTER_FAILED_PREFIX } from '../domain/messages';
import { ALL_EMAIL_TEMPLATE_TITLES, EMAIL_TEMPLATE_TITLES, notificationTemplateFor, requesterConfirmationFor } from '../domain/notification-template';
import { generatesLetter, isFinished, stampsCompletionDate, STATUS } from '../domain/request-status';
import { revokeErrors } from '../domain/issued-letters';
import type { ClockKind } from '../domain/request-clocks';
import { legacyRequestWorkflow } from './legacy/request.workflow.v1';
import {
  discussionPostedUpdate, generateLetterUpdate, letterEffectKeyOf, revokeCertificateUpdate, revokeEffectKeyOf, letterTaskQueue, recordSignedReleaseUpdate, reopenUpdate,
  REQUEST_WORKFLOW_SHAPE, sendEmailUpdate, setStatusUpdate, stateQuery, submitUpdate, wakeUpdate,
  type Actor, type RequestWorkflowInput, type RequestWorkflowState, type StatusResult,
} from './request.messages';
import { REQUEST_CLOCKS_PATCH, RequestClocks, type ClockAction } from './request-clocks';
import { asPartOf, currentReqId } from './log-context';
import { RequestStatusKey } from './search-attributes';

/** Runs recorded before command ids and the effects table replay on the legacy body. */
export const COMMANDS_AND_EFFECTS_PATCH = 'commands-and-effects';
/**
 * What a fresh run reads of PostgreSQL (the clocks' start, the effects an earlier run owed) as local activities:
 * read inside the workflow task that took the first command, instead of two activity tasks and a
 * workflow task more per submit. Writes stay activities: a local activity's write happens before the workflow task
 * that accepts the update is recorded, and a lost task (a worker or server killed) would leave PostgreSQL with a
 * change the workflow never made (the chaos test found it). Runs recorded before it keep their activity tasks.
 */
export const LOCAL_READS_PATCH = 'local-reads';

/**
 * Effects retry transient failures with a backoff growing to 5 minutes until the worker's retry window (default 72 h,
 * temporal/retry-window.ts) runs out, then fail visibly; permanent failures fail at once. A status write retries
 * until PostgreSQL takes it: the change was accepted and must land.
 */
export const EFFECT_RETRY: ActivityOptions['retry'] = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' };

const RECORD_OPTIONS = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
} satisfies ActivityOptions;
const remoteRecords = proxyActivities<RequestActivities>(RECORD_OPTIONS);
/** Same reads, same retries: only where they run changes. */
const localRecords = proxyLocalActivities<RequestActivities>(RECORD_OPTIONS);

/**
 * Local activities one at a time, in the order they were asked for. Two in flight at once (the start's pending
 * effects and the clocks' start) may finish in an order a replay does not reproduce: the replay then meets the
 * history's commands in another order and fails as non-deterministic. One after another, the order is the code's.
 */
function oneAtATime<T extends object>(activities: T): T {
  let tail: Promise<unknown> = Promise.resolve();
  return new Proxy(activities, {
    get(target, name) {
      const call = Reflect.get(target, name) as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => {
        const run = tail.then(() => call(...args));
        tail = run.catch(() => undefined);
        return run;
      };
    },
  });
}
const emails = proxyActivities<RequestActivities>({ startToCloseTimeout: '30 seconds', heartbeatTimeout: '5 seconds', retry: EFFECT_RETRY });

const TEMPLATE_TITLES: readonly string[] = Object.values(EMAIL_TEMPLATE_TITLES);

function failureReason(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return (cause as Error | undefined)?.message || String(error);
}

export async function requestWorkflow(input: RequestWorkflowInput): Promise<void> {
  // A run started with shape 5 (REQUEST_WORKFLOW_SHAPE) takes the patched paths without asking: every patched() call
  // writes a marker and a search-attribute upsert into the run's history. Runs started before it ask, in this order.
  const shaped = (input.shape ?? 0) >= 5;
  // Shape 6: a decision's letter and its email are one activity (one activity task and workflow task less).
  const oneLetterActivity = (input.shape ?? 0) >= 6;
  // Shape 7: a resubmission confirms itself to the requester too (domain/notification-template.ts).
  const confirmsResubmission = (input.shape ?? 0) >= 7;
  if (!shaped && !patched(COMMANDS_AND_EFFECTS_PATCH)) return legacyRequestWorkflow(input);
  // Runs recorded before the clocks replay without them (no timers, no clock activities, no new search attributes).
  const clocksOn = shaped || patched(REQUEST_CLOCKS_PATCH);
  const records = remoteRecords;
  const reads = shaped || (clocksOn && patched(LOCAL_READS_PATCH)) ? oneAtATime(localRecords) : remoteRecords;
  // Shape 5 reads PostgreSQL once at the run's start (owed effects and the clocks' start in one local activity), and
  // only for what continue-as-new did not carry; earlier shapes read each with a local activity of its own.
  const owedToRead = !input.pendingEffects;
  const clockToRead = !(input.clockPolicy && input.clocks);
  const runStart = shaped && (owedToRead || clockToRead)
    ? reads.runStart({ requestId: input.requestId, owed: owedToRead, clock: clockToRead }) : null;

  const { workflowId, runId, taskQueue } = workflowInfo();
  const letters = proxyActivities<RequestActivities>({
    taskQueue: letterTaskQueue(taskQueue), startToCloseTimeout: '1 minute', heartbeatTimeout: '10 seconds', retry: EFFECT_RETRY,
  });
  const state: RequestWorkflowState = {
    requestId: input.requestId,
    requestNumber: input.requestNumber,
    requestType: input.requestType,
    certificateType: input.certificateType ?? null,
    status: input.status,
    effectSeq: 0,
    pendingEffects: 0,
    lastCommandId: input.lastCommandId ?? null,
  };
  const queue: EffectRef[] = [...(input.pendingEffects ?? [])];
  const nextKey = () => `${workflowId}:${runId}:${++state.effectSeq}`;
  const ctx = () => ({ requestType: state.requestType, certificateType: state.certificateType });
  const result = (): StatusResult => ({ status: state.status, requestNumber: state.requestNumber });
  const isRepeat = (commandId?: string) => !!commandId && commandId === state.lastCommandId;
  let busy = false; // one change at a time: handlers interleave at every await
  // The command each queued effect came from, for the log lines of its activities (workflows/log-context.ts). Kept
  // beside the queue, not in it: neither history nor state changes, and a replay rebuilds it by re-running handlers.
  const reqIdOfEffect = new Map<string, string | undefined>();
  const enqueue = (effect: EffectRef) => {
    reqIdOfEffect.set(effect.key, currentReqId());
    queue.push(effect);
  };
  const clocks = clocksOn
    ? new RequestClocks(input, runStart ? async () => (await runStart).clockStart! : () => reads.clockStart({ requestId: input.requestId }))
    : null;

  /**
   * A validator judges against the status as it stands. While another change is under way (its status write may
   * already be in PostgreSQL, and a replay may deliver this update before that write's result), the status is about
   * to move: accept, and let the handler judge under the lock, after the change in flight has landed.
   */
  const refuseIfIllegal = (event: LifecycleEvent, commandId?: string) => {
    if (isRepeat(commandId) || busy) return;
    const outcome = applyLifecycleEvent(state.status, ctx(), event);
    if (!outcome.ok) throw ApplicationFailure.nonRetryable(outcome.message, 'BadRequest');
  };

  /** Takes the one-change-at-a-time lock. Re-checks after every wake-up: handlers woken together must not all take it. */
  async function locked<T>(body: () => Promise<T>): Promise<T> {
    while (busy) await condition(() => !busy);
    busy = true;
    try {
      return await body();
    } finally {
      busy = false;
    }
  }

  interface ChangeExtra {
    verified?: boolean; internalNotes?: string | null;
    /** a clock's change: its own email instead of the status's, the reason in the audit row, the email's request */
    templateTitle?: string; reason?: string; additionalInformation?: string; clock?: ClockKind;
  }

  /** Applies a legal change under the lock: status write, audit row and effect (one transaction), then the clocks. */
  async function applyChange(event: LifecycleEvent, actor: Actor, commandId: string | undefined, extra: ChangeExtra): Promise<StatusResult> {
    const outcome = applyLifecycleEvent(state.status, ctx(), event);
    if (!outcome.ok) throw ApplicationFailure.nonRetryable(outcome.message, 'BadRequest');
    if (clocks) await clocks.ready();
    const previousStatus = state.status;
    const status = outcome.status;
    const key = nextKey();
    const at = new Date().toISOString(); // workflow time: deterministic on replay
    const templateTitle = extra.templateTitle ?? notificationTemplateFor({ requestType: state.requestType, previousStatus, newStatus: status });
    const effect = templateTitle ? { kind: generatesLetter(status) ? 'letter-and-email' as const : 'email' as const, templateTitle } : null;
    const confirmation = confirmsResubmission && !extra.templateTitle
      ? requesterConfirmationFor({ requestType: state.requestType, previousStatus, newStatus: status }) : null;
    const alsoEmail = confirmation ? { key: nextKey(), templateTitle: confirmation } : null;
    await records.recordStatus({
      key, requestId: state.requestId, previousStatus, status, at,
      submitted: event.type === 'SUBMIT',
      completedDate: stampsCompletionDate(status) ? at : null,
      verified: extra.verified, internalNotes: extra.internalNotes, actor,
      commandId: commandId ?? null, effect,
      ...(extra.reason ? { reason: extra.reason } : {}),
      ...(extra.additionalInformation ? { additionalInformation: extra.additionalInformation } : {}),
      ...(extra.clock ? { clock: extra.clock } : {}),
      ...(alsoEmail ? { alsoEmail } : {}),
    });
    state.status = status;
    if (commandId) state.lastCommandId = commandId;
    if (!shaped) upsertSearchAttributes([{ key: RequestStatusKey, value: status }]);
    if (effect) enqueue({ key, ...effect });
    if (alsoEmail) enqueue({ ...alsoEmail, kind: 'email' });
    clocks?.statusEntered(status, at);
    // Shape 5: the status and the clock it starts (or stops) in one search-attribute upsert.
    if (shaped) clocks!.publishWith(state.requestType, [{ key: RequestStatusKey, value: status }]);
    return result();
  }

  function change(event: LifecycleEvent, actor: Actor, commandId: string | undefined, extra: ChangeExtra): Promise<StatusResult> {
    return locked(async () => {
      if (isRepeat(commandId)) return result();
      // A submit repeated while the first is on its way (the requester retried) answers like the first.
      if (event.type === 'SUBMIT' && state.status === STATUS.submitted) return result();
      return applyChange(event, actor, commandId, extra);
    });
  }

  /** A clock fell due: what it does (domain/request-clocks.ts decides, the lock keeps it apart from commands). */
  async function carryOutClock(action: ClockAction): Promise<void> {
    if (action.type === 'status') {
      await applyChange(action.event, action.actor, undefined, action.extra);
      return;
    }
    const effect = await records.recordClockEffect({ key: nextKey(), requestId: state.requestId, at: new Date().toISOString(), ...action.record });
    enqueue(effect);
  }

  setHandler(stateQuery, () => ({ ...state, pendingEffects: queue.length, clock: clocks?.describe(state.requestType) ?? null }));
  setHandler(submitUpdate, ({ actor, commandId }) => change({ type: 'SUBMIT' }, actor, commandId, {}), {
    validator: ({ commandId }) => { if (state.status !== STATUS.submitted) refuseIfIllegal({ type: 'SUBMIT' }, commandId); },
  });
  setHandler(setStatusUpdate, ({ status, verified, internalNotes, actor, commandId }) =>
    change({ type: 'SET_STATUS', status, verified }, actor, commandId, { verified, internalNotes }), {
    validator: ({ status, verified, commandId }) => refuseIfIllegal({ type: 'SET_STATUS', status, verified }, commandId),
  });
  setHandler(reopenUpdate, ({ actor, commandId }) => change({ type: 'REOPEN' }, actor, commandId, {}), {
    validator: ({ commandId }) => refuseIfIllegal({ type: 'REOPEN' }, commandId),
  });
  // A handler added after the others: existing command paths are untouched, so recorded histories replay as before.
  setHandler(wakeUpdate, ({ reason, note, actor, commandId }) => change({ type: 'WAKE', reason }, actor, commandId, { reason: note }), {
    validator: ({ reason, commandId }) => refuseIfIllegal({ type: 'WAKE', reason }, commandId),
  });
  setHandler(sendEmailUpdate, async ({ templateTitle, retryOf, actor, recipients }) => {
    const effect = await records.queueEmail({ key: nextKey(), requestId: state.requestId, templateTitle, retryOf, actor, ...(recipients ? { recipients } : {}) });
    enqueue(effect);
    return { queued: true as const, templateTitle };
  }, {
    validator: ({ templateTitle }) => {
      // The clocks' templates may be sent (again) once the clocks exist; older runs know the twelve.
      const known = clocksOn ? ALL_EMAIL_TEMPLATE_TITLES : TEMPLATE_TITLES;
      if (!known.includes(templateTitle)) throw ApplicationFailure.nonRetryable(`Unknown email template "${templateTitle}"`, 'BadRequest');
    },
  });

  // The signed release date (credentialing, recorded when verifying): written with an audit row; arms its expiry.
  setHandler(recordSignedReleaseUpdate, ({ signedReleaseDate, actor }) => locked(async () => {
    if (clocks) await clocks.ready();
    const at = new Date().toISOString();
    await records.recordSignedRelease({ key: nextKey(), requestId: state.requestId, signedReleaseDate, at, actor });
    clocks?.releaseRecorded(signedReleaseDate, at);
    return { signedReleaseDate };
  }), {
    validator: ({ signedReleaseDate }) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(signedReleaseDate)) throw ApplicationFailure.nonRetryable('Date input not valid.', 'BadRequest');
      if (state.requestType !== 'credentialing') throw ApplicationFailure.nonRetryable('Only claim history requests have a signed release', 'BadRequest');
      if (isFinished(state.status)) throw ApplicationFailure.nonRetryable('This request is finished', 'BadRequest');
    },
  });

  // A message posted on the request: its `Request Discussion` effect and audit row are keyed by the message, so a
  // second delivery (even to a later run) finds them and queues nothing new unless the email is still owed.
  setHandler(discussionPostedUpdate, async ({ discussionRowId }) => {
    const { effect, state: effectState } = await records.queueDiscussionEmail({ requestId: state.requestId, discussionRowId });
    if (!effect || effectState !== 'pending') return { queued: false };
    if (!queue.some((q) => q.key === effect.key)) enqueue(effect);
    return { queued: true };
  });

  // generate-pdfs: a letter regenerated (and emailed) on demand. The effect is keyed by the command, so a repeat
  // finds its row; the main loop renders it like any approval letter. A new handler: no existing path changes.
  setHandler(generateLetterUpdate, async ({ commandId, sendWithEmail, templateTitle, actor }) => {
    const { effect, state: effectState } = await records.queueLetter({
      key: letterEffectKeyOf(commandId), requestId: state.requestId, sendWithEmail, templateTitle, actor,
    });
    if (effectState === 'pending' && !queue.some((q) => q.key === effect.key)) enqueue(effect);
    return { effectKey: effect.key };
  });

  // Revoking an issued certificate or letter (a new handler: no existing path changes, recorded histories replay).
  // Under the lock, so the run cannot end between the record and queueing the requester's email.
  setHandler(revokeCertificateUpdate, ({ commandId, code, reason, note, actor, revokedBy }) => locked(async () => {
    const { effect, state: effectState, revokedAt } = await records.revokeCertificate({
      key: revokeEffectKeyOf(commandId), requestId: state.requestId, code, reason, note, actor, revokedBy,
    });
    if (effectState === 'pending' && !queue.some((q) => q.key === effect.key)) enqueue(effect);
    return { revokedAt };
  }), {
    validator: ({ reason, note }) => {
      const errors = revokeErrors({ reason, note });
      const message = errors.reason ?? errors.note;
      if (message) throw ApplicationFailure.nonRetryable(message, 'BadRequest');
    },
  });

  async function carryOut(effect: EffectRef): Promise<void> {
    let step = 'letter';
    try {
      if (oneLetterActivity && effect.kind === 'letter-and-email') {
        // Shape 6: printed and emailed by one activity on the letters queue; a letter failure names itself.
        step = 'letter and email';
        await letters.issueLetterAndEmail({ key: effect.key });
        return;
      }
      // The command sequence of 'email' and 'letter-and-email' effects is unchanged (saved histories replay).
      if (effect.kind === 'letter-and-email' || effect.kind === 'letter') await letters.renderEffectLetter({ key: effect.key });
      step = 'email';
      if (effect.kind === 'letter') await records.finishLetterEffect({ key: effect.key });
      else await emails.sendEffectEmail({ key: effect.key });
    } catch (error) {
      const reason = step === 'letter' ? `${LETTER_FAILED_PREFIX}${failureReason(error)}` : failureReason(error);
      log.warn('request effect failed', { key: effect.key, templateTitle: effect.templateTitle, reason });
      await records.recordEffectFailure({ key: effect.key, reason });
    }
  }

  // Effects an earlier run owed and never carried out (it was terminated or reset) go first.
  if (owedToRead) {
    const owed = runStart ? (await runStart).owed : await reads.pendingEffects({ requestId: state.requestId });
    queue.unshift(...owed.filter((e) => !queue.some((q) => q.key === e.key)));
  }

  if (clocks) await clocks.ready();

  const finishedAndIdle = () => isFinished(state.status) && queue.length === 0 && !busy;
  for (;;) {
    const wake = () => queue.length > 0 || finishedAndIdle() || workflowInfo().continueAsNewSuggested;
    if (clocks) {
      // Wait for work or for the next clock (a durable timer named after what it waits for); a command that moves the
      // clocks (a status change, a release date) wakes the loop, which arms the clock that is now next.
      const due = await clocks.waitFor(wake, state.requestType);
      // A clock is no command's: its activities log without a reqId (not the one the run was started with).
      if (due) {
        await asPartOf(undefined, () => locked(async () => {
          const action = clocks.fire(due, ctx(), state.status);
          // A clock that cannot be carried out (its request row is gone) is logged, never the end of the request.
          if (action) await carryOutClock(action).catch((error) => log.warn('request clock failed', { kind: due.kind, reason: failureReason(error) }));
        }));
      }
    } else {
      await condition(wake);
    }
    while (queue.length > 0) {
      const effect = queue[0];
      await asPartOf(reqIdOfEffect.get(effect.key), () => carryOut(effect));
      reqIdOfEffect.delete(effect.key);
      queue.shift();
    }
    if (finishedAndIdle()) {
      await condition(allHandlersFinished);
      if (finishedAndIdle()) return; // the request is decided and owes nothing: a later command starts a new run
      continue;
    }
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      if (queue.length > 0 || busy) continue;
      await continueAsNew<typeof requestWorkflow>({
        shape: REQUEST_WORKFLOW_SHAPE, requestId: state.requestId, requestNumber: state.requestNumber, requestType: state.requestType,
        certificateType: state.certificateType, status: state.status, lastCommandId: state.lastCommandId, pendingEffects: [],
        ...(clocks ? clocks.carryOver() : {}),
      });
    }
  }
}
