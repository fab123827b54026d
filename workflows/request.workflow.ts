/**
 * One durable workflow per submitted request (`request-<requestNumber>`). It owns the request's status: the
 * lifecycle machine in domain/ decides every change; activities persist it and carry out what it owes (letters,
 * emails), each keyed `<workflowId>:<runId>:<seq>` so a retry never repeats an effect and no key repeats in
 * another run. The state and the handlers are in workflows/request/request-run.ts; this file wires the messages to
 * them and runs the main loop.
 *
 * - Commands (submit, status, reopen, wake) are updates whose id derives from the command: a repeat is
 *   de-duplicated by Temporal, or answered from `lastCommandId` when it reaches a later run.
 * - An update returns once PostgreSQL has the new status and, in the same transaction, the effect it owes with a
 *   snapshot of the request (emails and letters say what was true at the change, whatever is edited later).
 * - Effects go out one after another from the main loop, each with a bounded retry (workflows/request/effects.ts).
 *   Clocks (reminders, escalation, auto-close, signed-release expiry) are durable timers the loop waits on
 *   (workflows/request-clocks.ts).
 * - The workflow ends when the request is finished and owes nothing. Any later command re-creates it from
 *   PostgreSQL (update-with-start, services/requests/request-workflow-client.ts); a new run first takes over the effects an
 *   earlier run left pending (terminated, reset).
 *
 * Changing what this code does changes what running workflows replay: follow docs/OPERATIONS.md "The first change
 * to a workflow after a release" (a `patched()` gate and a recorded history of the old shape).
 */
import { allHandlersFinished, condition, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import { RequestRun } from './request/request-run';
import {
  adminSaveUpdate, askRenewalUpdate, discussionPostedUpdate, generateLetterUpdate, recordSignedReleaseUpdate, renewUpdate, reopenUpdate, revokeCertificateUpdate,
  sendEmailUpdate, setStatusUpdate, stateQuery, submitUpdate, wakeUpdate, type RequestWorkflowInput,
} from './request.messages';

export async function requestWorkflow(input: RequestWorkflowInput): Promise<void> {
  const run = new RequestRun(input);

  setHandler(stateQuery, () => run.describe());
  setHandler(submitUpdate, (c) => run.submit(c), { validator: (c) => run.validateSubmit(c) });
  setHandler(setStatusUpdate, (c) => run.setStatus(c), { validator: (c) => run.validateSetStatus(c) });
  setHandler(reopenUpdate, (c) => run.reopen(c), { validator: (c) => run.validateReopen(c) });
  setHandler(wakeUpdate, (c) => run.wake(c), { validator: (c) => run.validateWake(c) });
  setHandler(sendEmailUpdate, (c) => run.sendEmail(c), { validator: (c) => run.validateSendEmail(c) });
  setHandler(recordSignedReleaseUpdate, (c) => run.recordSignedRelease(c), { validator: (c) => run.validateRecordSignedRelease(c) });
  setHandler(adminSaveUpdate, (c) => run.adminSave(c), { validator: (c) => run.validateAdminSave(c) });
  setHandler(discussionPostedUpdate, (c) => run.discussionPosted(c));
  setHandler(generateLetterUpdate, (c) => run.generateLetter(c));
  setHandler(revokeCertificateUpdate, (c) => run.revokeCertificate(c), { validator: (c) => run.validateRevokeCertificate(c) });
  setHandler(renewUpdate, (c) => run.renew(c), { validator: (c) => run.validateRenew(c) });
  setHandler(askRenewalUpdate, (c) => run.askRenewal(c), { validator: (c) => run.validateRenew(c) });

  await run.takeOverOwedEffects();
  for (;;) {
    const due = await run.waitForWork();
    if (due) await run.fireClock(due);
    await run.decideInstantIfDue();
    await run.carryOutEffects();
    if (run.finishedAndIdle()) {
      await condition(allHandlersFinished);
      if (run.finishedAndIdle()) return; // decided and owes nothing: a later command starts a new run
    } else if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      if (run.idle()) await continueAsNew<typeof requestWorkflow>(run.carryOver());
    }
  }
}
