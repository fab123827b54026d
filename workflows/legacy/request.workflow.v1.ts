/**
 * LEGACY (workflows started before the `commands-and-effects` patch): kept verbatim so their histories replay.
 * `requestWorkflow` runs this body when `patched('commands-and-effects')` is false, i.e. only when replaying or
 * continuing a run recorded by this code. New runs never reach it. Do not edit; delete once no such run is open
 * (then `deprecatePatch`).
 *
 * One durable workflow per submitted request (`request-<requestNumber>`). It owns the request's status: the
 * lifecycle machine in domain/ decides every change, activities persist it and carry out the side effects
 * (audit rows, letters, emails), each with an idempotency key so a retried activity never repeats its effect.
 *
 * Updates return once the new status is saved in PostgreSQL; letters and emails follow from a queue the main loop
 * drains, so a slow SMTP server or Chromium never holds up the administrator's Save.
 */
import {
  ApplicationFailure, allHandlersFinished, condition, continueAsNew, log, proxyActivities, setHandler,
  upsertSearchAttributes, workflowInfo, type RetryPolicy,
} from '@temporalio/workflow';
import type { LegacyRequestActivities as RequestActivities } from '../request-activities.types';
import { notificationTemplateFor } from '../../domain/notification-template';
import { applyLifecycleEvent, type LifecycleEvent } from '../../domain/request-lifecycle.machine';
import { generatesLetter, stampsCompletionDate, STATUS } from '../../domain/request-status';
import {
  letterTaskQueue, reopenUpdate, setStatusUpdate, stateQuery, submitUpdate,
  type Actor, type RequestWorkflowInput, type RequestWorkflowState, type StatusResult,
} from '../request.messages';
import { RequestStatusKey } from '../search-attributes';

const { recordStatusChange } = proxyActivities<RequestActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', backoffCoefficient: 2 },
});
const sideEffectRetry: RetryPolicy = { initialInterval: '2 seconds', maximumInterval: '5 minutes', backoffCoefficient: 2 }; // type-only annotation
const { sendTemplatedEmail } = proxyActivities<RequestActivities>({ startToCloseTimeout: '2 minutes', retry: sideEffectRetry });


type Effect =
  | { kind: 'email'; key: string; templateTitle: string }
  | { kind: 'letter-and-email'; key: string; templateTitle: string };

export async function legacyRequestWorkflow(input: RequestWorkflowInput): Promise<void> {
  const state: RequestWorkflowState = {
    requestId: input.requestId,
    requestNumber: input.requestNumber,
    requestType: input.requestType,
    certificateType: input.certificateType ?? null,
    status: input.status,
    effectSeq: input.effectSeq ?? 1,
    pendingEffects: 0,
  };
  const effects: Effect[] = [];
  const { generateLetter } = proxyActivities<RequestActivities>({
    taskQueue: letterTaskQueue(workflowInfo().taskQueue),
    startToCloseTimeout: '2 minutes',
    retry: sideEffectRetry,
  });
  let busy = false; // one status change at a time: handlers interleave at every await
  const ctx = () => ({ requestType: state.requestType, certificateType: state.certificateType });

  const refuseIfIllegal = (event: LifecycleEvent) => {
    const result = applyLifecycleEvent(state.status, ctx(), event);
    if (!result.ok) throw ApplicationFailure.nonRetryable(result.message, 'BadRequest');
  };

  async function change(event: LifecycleEvent, actor: Actor, extra: { verified?: boolean; internalNotes?: string | null }): Promise<StatusResult> {
    // Re-check after every wake-up: handlers woken in the same activation must not all take the lock.
    while (busy) await condition(() => !busy);
    busy = true;
    try {
      // A submit repeated while the first is still on its way (the requester retried) answers like the first.
      if (event.type === 'SUBMIT' && state.status === STATUS.submitted) return { status: state.status, requestNumber: state.requestNumber };
      const result = applyLifecycleEvent(state.status, ctx(), event);
      if (!result.ok) throw ApplicationFailure.nonRetryable(result.message, 'BadRequest');
      const previousStatus = state.status;
      const status = result.status;
      const seq = state.effectSeq++;
      const key = `${workflowInfo().workflowId}:${seq}`;
      const now = new Date().toISOString(); // workflow time: deterministic on replay
      await recordStatusChange({
        key,
        requestId: state.requestId,
        previousStatus,
        status,
        at: now,
        submitted: event.type === 'SUBMIT',
        completedDate: stampsCompletionDate(status) ? now : null,
        verified: extra.verified,
        internalNotes: extra.internalNotes,
        actor,
      });
      state.status = status;
      upsertSearchAttributes([{ key: RequestStatusKey, value: status }]);
      const templateTitle = notificationTemplateFor({ requestType: state.requestType, previousStatus, newStatus: status });
      if (generatesLetter(status) && templateTitle) effects.push({ kind: 'letter-and-email', key, templateTitle });
      else if (templateTitle) effects.push({ kind: 'email', key, templateTitle });
      state.pendingEffects = effects.length;
      return { status, requestNumber: state.requestNumber };
    } finally {
      busy = false;
    }
  }

  setHandler(stateQuery, () => ({ ...state, pendingEffects: effects.length }));
  setHandler(submitUpdate, ({ actor }) => change({ type: 'SUBMIT' }, actor, {}), {
    validator: (_command) => { if (state.status !== STATUS.submitted) refuseIfIllegal({ type: 'SUBMIT' }); },
  });
  setHandler(setStatusUpdate, ({ status, verified, internalNotes, actor }) =>
    change({ type: 'SET_STATUS', status, verified }, actor, { verified, internalNotes }), {
    validator: ({ status, verified }) => refuseIfIllegal({ type: 'SET_STATUS', status, verified }),
  });
  setHandler(reopenUpdate, ({ actor }) => change({ type: 'REOPEN' }, actor, {}), {
    validator: (_command) => refuseIfIllegal({ type: 'REOPEN' }),
  });

  async function carryOut(effect: Effect): Promise<void> {
    const attachmentDocumentIds: number[] = [];
    if (effect.kind === 'letter-and-email') {
      attachmentDocumentIds.push((await generateLetter({ key: effect.key, requestId: state.requestId })).documentId);
    }
    await sendTemplatedEmail({ key: effect.key, requestId: state.requestId, templateTitle: effect.templateTitle, attachmentDocumentIds });
  }

  // The first submission arrives as the update that started this workflow (update-with-start).
  for (;;) {
    await condition(() => effects.length > 0 || workflowInfo().continueAsNewSuggested);
    while (effects.length > 0) {
      const effect = effects[0];
      try {
        await carryOut(effect);
      } catch (error) {
        // Only non-retryable failures get here (retryable ones retry until they succeed). The request's status is
        // already saved; the operator sees this failure in the history and the log.
        log.error('request side effect failed', { effect, error: String(error) });
      }
      effects.shift();
    }
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      if (effects.length === 0) {
        await continueAsNew<typeof legacyRequestWorkflow>({
          requestId: state.requestId, requestNumber: state.requestNumber, requestType: state.requestType,
          certificateType: state.certificateType, status: state.status, effectSeq: state.effectSeq,
        });
      }
    }
  }
}
