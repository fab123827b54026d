/**
 * THE REQUEST WORKFLOWS' CLIENT: the only code that sends updates to (or starts) workflow `request-<number>`, for
 * every door (the API's commands, a reply by email, a wake-up, the operators' resume). Every command (submit, status
 * change, reopen, send an email again, a posted message, a wake-up) becomes an update-with-start, so a request whose
 * workflow has ended (finished, terminated, lost with its history) is re-created from PostgreSQL before the command
 * runs. Its refusals are the use cases' (services/refusals.ts), never Temporal's errors.
 *
 * A command's update id derives from the command itself (request, what it asks for, and the request version the
 * caller saw), never from chance: a Save pressed again, or retried after the API came back, is the same update,
 * which Temporal de-duplicates and answers with the first result. The request row also remembers the last
 * applied command id (`lastCommandId`), so a repeat that reaches a later run of the workflow is answered from
 * PostgreSQL like the first.
 */
import {
  ApplicationFailure, WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError, type Client,
} from '@temporalio/client';
import { createHash } from 'node:crypto';
import { applyLifecycleEvent, askRenewalCommandIdOf, renewCommandIdOf, STATUS, type CertificateType, type LifecycleEvent, type RequestStatus, type RequestType } from '../../domain';
import {
  requestWorkflowId, adminSaveUpdate, discussionPostedUpdate, generateLetterUpdate, sendEmailUpdate, submitUpdate,
  askRenewalUpdate, renewUpdate, revokeCertificateUpdate, wakeUpdate, REQUEST_WORKFLOW_TYPE, type Actor, type RenewResult, type RequestWorkflowInput,
  type RevokeCertificateCommand, type StatusResult,
  type WakeCommand,
} from '../../workflows/request.messages';
import { requestStartSearchAttributes } from '../../workflows/search-attributes';
import { conflict, invalid, notFound, Refusal, unavailable } from '../refusals';

/**
 * A status change waits at most `config.workflowAnswerTimeoutMs` for the worker. Past it the browser hears 503.
 * Nothing is lost and nothing doubles: Temporal keeps the admitted update until a worker takes it, the status in
 * PostgreSQL changes only when the workflow applies it, and pressing again sends the same update id.
 */
export const NO_ANSWER_MESSAGE = 'The request service did not confirm this change in time. It may still go through: please reload this page in a moment before trying again.';

export interface WorkflowAccess { temporal: Client; taskQueue: string; answerTimeoutMs: number }

/** What a request's workflow is (re-)created from: its PostgreSQL row. */
export interface RequestStartRow {
  id: number;
  requestNumber: number;
  requestType: string;
  certificateType?: string | null;
  status: string;
  lastCommandId?: string | null;
  /** the requester's email: a search attribute operators find the workflow by */
  requesterEmail?: string | null;
}

/** The start of a request's workflow from its row: its id, input and search attributes; an open run is used as it is. */
function requestStartOptions(request: RequestStartRow, taskQueue: string) {
  const input: RequestWorkflowInput = {
    requestId: request.id,
    requestNumber: request.requestNumber,
    requestType: request.requestType as RequestType,
    certificateType: (request.certificateType ?? null) as CertificateType | null,
    status: request.status as RequestStatus,
    lastCommandId: request.lastCommandId ?? null,
  };
  return {
    workflowId: requestWorkflowId(request.requestNumber),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: requestStartSearchAttributes(request),
  } as const;
}

/** What the workflow needs of the stored request to (re-)create itself, and the version the caller saw. */
export interface RequestRow extends RequestStartRow {
  /** optimistic-lock version as loaded, before this HTTP request's own form changes */
  version: number;
}

/** `<kind>:<number>:<target>:v<version>`: the same press of the same button on the same version, the same id. */
function commandIdOf(kind: 'submit', requestNumber: number, target: string, version: number): string {
  return `${kind}:${requestNumber}:${target.replace(/[^A-Za-z0-9]+/g, '-')}:v${version}`;
}

/**
 * Answers Temporal refuses for a moment, which the same command (same update id) may retry: the server is
 * restarting, the workflow's task is being retried after a worker died ("Workflow Task in failed state"), or the
 * workflow has as many updates in flight as Temporal takes (RESOURCE_EXHAUSTED: a burst of replies to one request).
 */
const TRANSIENT = /UNAVAILABLE|ECONNREFUSED|connect|Workflow Task in failed state|FAILED_PRECONDITION: Update-with-Start could not be executed|RESOURCE_EXHAUSTED|in-flight|too many/i;

/**
 * What a refused update tells the caller: the reason its handler (or an activity it ran) gave, as the HTTP error its
 * type names (`NotFound` 404, `Conflict` 409, anything else 400), never Temporal's "Activity task failed" wrapper.
 */
function refusalOf(error: WorkflowUpdateFailedError): Refusal {
  let reason: Error | undefined = error.cause;
  while (reason && !(reason instanceof ApplicationFailure) && reason.cause instanceof Error) reason = reason.cause;
  const message = reason?.message ?? error.message;
  if (reason instanceof ApplicationFailure && reason.type === 'NotFound') return notFound(message);
  if (reason instanceof ApplicationFailure && reason.type === 'Conflict') return conflict(message);
  return invalid(message);
}

async function translateFailures<T>(access: WorkflowAccess, call: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + access.answerTimeoutMs;
  for (;;) {
    try {
      return await access.temporal.withDeadline(deadline, call);
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError) throw refusalOf(error);
      if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError || /DEADLINE_EXCEEDED/.test(String((error as Error).message))) {
        throw unavailable(NO_ANSWER_MESSAGE);
      }
      if (error instanceof Refusal) throw error;
      const message = `${(error as Error).message ?? ''} ${String((error as { cause?: unknown }).cause ?? '')} ${String((error as Error).stack ?? '')}`;
      if (!TRANSIENT.test(message)) throw error;
      // The command's update id derives from the command, so asking again cannot apply it twice.
      if (Date.now() + 500 >= deadline) throw unavailable(NO_ANSWER_MESSAGE);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Starts the request's workflow from PostgreSQL when no run is open; otherwise the open run takes the update. */
const startOperation = (access: WorkflowAccess, request: RequestStartRow) =>
  new WithStartWorkflowOperation(REQUEST_WORKFLOW_TYPE, requestStartOptions(request, access.taskQueue));

const STALE_VERSION_MESSAGE = 'This request changed since you opened it. Please reload the page and try again.';

/**
 * A repeat of the command the request last applied is answered like the first time, without asking the workflow.
 * Any other command must be made on the version stored now: a page left open while someone else changed the
 * request gets a Conflict instead of undoing their change (and a command id can never be reused).
 */
function alreadyApplied(request: RequestRow, commandId: string, version: number | null, event: LifecycleEvent | null): StatusResult | null {
  if (request.lastCommandId === commandId) return { status: request.status as RequestStatus, requestNumber: request.requestNumber };
  if (version !== null && version !== request.version) throw conflict(STALE_VERSION_MESSAGE);
  // The stored status is the workflow's (it is saved before an update answers): refuse what the lifecycle refuses
  // without waking, or re-creating, the workflow. The workflow's validator still decides the race.
  if (event && !(event.type === 'SUBMIT' && request.status === STATUS.submitted)) {
    const outcome = applyLifecycleEvent(request.status as RequestStatus, {
      requestType: request.requestType as RequestType, certificateType: (request.certificateType ?? null) as CertificateType | null,
    }, event);
    if (!outcome.ok) throw invalid(outcome.message);
  }
  return null;
}

/** `version`: the request version the caller saw when it pressed Submit (defaults to the stored one). */
export function submitRequest(access: WorkflowAccess, request: RequestRow, actor: Actor, version = request.version): Promise<StatusResult> {
  const commandId = commandIdOf('submit', request.requestNumber, 'Submitted', version);
  // No stale-version check: autosaves move the version under the Submit button; the stored form is what is submitted.
  const repeat = alreadyApplied(request, commandId, null, { type: 'SUBMIT' });
  if (repeat) return Promise.resolve(repeat);
  return translateFailures(access, () => access.temporal.workflow.executeUpdateWithStart(submitUpdate, {
    args: [{ actor, commandId }], updateId: commandId, startWorkflowOperation: startOperation(access, request),
  }));
}

/** What an administrator's Save changes: each part only when it changes (a status change carries the verification). */
export interface AdminSave { status?: RequestStatus; verified?: boolean; internalNotes?: string | null; signedReleaseDate?: string; actor: Actor }

/** `save:<number>:<status or "same">:v<version>:<digest of the rest>`: the same Save of the same page, the same id. */
function adminSaveCommandIdOf(requestNumber: number, save: AdminSave, version: number): string {
  const rest = JSON.stringify([save.verified ?? null, save.internalNotes === undefined ? { unchanged: true } : save.internalNotes, save.signedReleaseDate ?? null]);
  const target = save.status === undefined ? 'same' : save.status.replace(/[^A-Za-z0-9]+/g, '-');
  return `save:${requestNumber}:${target}:v${version}:${createHash('sha256').update(rest).digest('hex').slice(0, 12)}`;
}

/**
 * An administrator's Save, whole, as one update (`adminSave`): the workflow writes the status change (a change to
 * Draft is a Reopen), the verification, the internal notes and the signed release date, and is their one writer. A
 * status change is made on the version the caller saw (Conflict otherwise), as every status command; a Save without
 * one is a plain save and is not.
 */
export function saveAsAdmin(access: WorkflowAccess, request: RequestRow, save: AdminSave, version = request.version): Promise<StatusResult> {
  const commandId = adminSaveCommandIdOf(request.requestNumber, save, version);
  const event: LifecycleEvent | null = save.status === undefined ? null
    : save.status === STATUS.draft ? { type: 'REOPEN' } : { type: 'SET_STATUS', status: save.status, verified: save.verified ?? false };
  const repeat = alreadyApplied(request, commandId, event ? version : null, event);
  if (repeat) return Promise.resolve(repeat);
  return translateFailures(access, () => access.temporal.workflow.executeUpdateWithStart(adminSaveUpdate, {
    args: [{ ...save, commandId }], updateId: commandId, startWorkflowOperation: startOperation(access, request),
  }));
}

/**
 * Sends a template email for the request through its workflow (audited, idempotent). `retryOf` is the audit row
 * of a failed email being sent again: pressing "Send again" twice sends one email.
 */
export function sendEmail(
  access: WorkflowAccess, request: RequestRow,
  command: { templateTitle: string; retryOf?: number | null; actor: Actor; recipients?: string[] | null },
  nonce: string,
): Promise<{ queued: true; templateTitle: string }> {
  const commandId = command.retryOf
    ? `email:${request.requestNumber}:retry-${command.retryOf}`
    : `email:${request.requestNumber}:${command.templateTitle.replace(/[^A-Za-z0-9]+/g, '-')}:${nonce}`;
  return translateFailures(access, () => access.temporal.workflow.executeUpdateWithStart(sendEmailUpdate, {
    args: [{
      templateTitle: command.templateTitle, retryOf: command.retryOf ?? null, actor: command.actor, commandId,
      ...(command.recipients ? { recipients: command.recipients } : {}),
    }],
    updateId: commandId,
    startWorkflowOperation: startOperation(access, request),
  }));
}

/** The update id of a posted message: derived from the message, so a repeated delivery sends one email. */
const discussionCommandIdOf = (requestNumber: number, discussionRowId: number) => `discussion:${requestNumber}:${discussionRowId}`;

/**
 * Hands a posted message (typed on the portal or sent by email) to the request's workflow, which emails the other
 * side and writes the audit row.
 */
export function postDiscussion(access: WorkflowAccess, request: RequestStartRow, discussionRowId: number, actor: Actor): Promise<{ queued: boolean }> {
  const commandId = discussionCommandIdOf(request.requestNumber, discussionRowId);
  return translateFailures(access, () => access.temporal.workflow.executeUpdateWithStart(discussionPostedUpdate, {
    args: [{ discussionRowId, actor }], updateId: commandId, startWorkflowOperation: startOperation(access, request),
  }));
}

/**
 * generate-pdfs through the request's workflow: `<number>`, what is asked, the request version and the newest
 * document the caller's request had. The same press (or its retry after a 503) is the same command and makes one
 * letter; once that letter exists the next press is a new command.
 */
export const letterCommandIdOf = (requestNumber: number, sendWithEmail: boolean, version: number, latestDocumentId: number) =>
  `pdf:${requestNumber}:${sendWithEmail ? 'letter-and-email' : 'letter'}:v${version}:d${latestDocumentId}`;

export function generateLetter(
  access: WorkflowAccess, request: RequestRow, command: { commandId: string; sendWithEmail: boolean; templateTitle: string; actor: Actor },
): Promise<{ effectKey: string }> {
  return translateFailures(access, () => access.temporal.workflow.executeUpdateWithStart(generateLetterUpdate, {
    args: [command], updateId: command.commandId, startWorkflowOperation: startOperation(access, request),
  }));
}

/**
 * Ends the workflow of a draft being deleted (a discussion on a draft starts one), before its rows go: should the
 * deletion then fail, the draft stays and its next command re-creates the workflow from PostgreSQL.
 */
export async function endDraftWorkflow(access: WorkflowAccess, requestNumber: number): Promise<void> {
  await translateFailures(access, async () => {
    try {
      await access.temporal.workflow.getHandle(requestWorkflowId(requestNumber)).terminate('The draft was deleted');
    } catch (error) {
      // Never started (no discussion), or already closed: nothing to end. A closed run is reported as not found.
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  });
}

/** `revoke:<number>:<code>`: revoking one letter is one command, however often it is pressed. */
export const revokeCommandIdOf = (requestNumber: number, code: string) => `revoke:${requestNumber}:${code}`;

/** An administrator revokes an issued certificate or letter: the request's workflow records it and emails the requester. */
export function revokeCertificate(access: WorkflowAccess, request: RequestRow, command: RevokeCertificateCommand): Promise<{ revokedAt: string }> {
  return translateFailures(access, () => access.temporal.workflow.executeUpdateWithStart(revokeCertificateUpdate, {
    args: [command], updateId: command.commandId, startWorkflowOperation: startOperation(access, request),
  }));
}

/**
 * What a waiting request waited for arrived (a policy year, a directory person): its workflow's lifecycle machine
 * judges the return to review and records it like any other change. A refusal means the request moved on meanwhile.
 */
export function wakeRequest(access: WorkflowAccess, request: RequestStartRow, command: WakeCommand): Promise<StatusResult> {
  return translateFailures(access, () => access.temporal.workflow.executeUpdateWithStart(wakeUpdate, {
    args: [command], updateId: command.commandId, startWorkflowOperation: startOperation(access, request),
  }));
}

/**
 * Starts the workflow of a request that has none open (a Temporal that lost its history: the operators' resume);
 * answers whether it started one. A run that exists is left as it is.
 */
export async function startRequestWorkflow(access: WorkflowAccess, request: RequestStartRow): Promise<boolean> {
  try {
    await access.temporal.workflow.start(REQUEST_WORKFLOW_TYPE, { ...requestStartOptions(request, access.taskQueue), workflowIdConflictPolicy: 'FAIL' });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

/**
 * Renewal season: the request's workflow reissues its certificate for a policy year (update id per request and year,
 * `renewCommandIdOf`, whichever run asks), or asks the requester whether it is still needed (once per run).
 */
export function renewRequest(access: WorkflowAccess, request: RequestStartRow, command: { policyYearId: number; runId: number | null; actor: Actor }): Promise<RenewResult> {
  const commandId = renewCommandIdOf(request.requestNumber, command.policyYearId);
  return translateFailures(access, () => access.temporal.workflow.executeUpdateWithStart(renewUpdate, {
    args: [{ ...command, commandId }], updateId: commandId, startWorkflowOperation: startOperation(access, request),
  }));
}

export function askRenewal(access: WorkflowAccess, request: RequestStartRow, command: { runId: number; actor: Actor }): Promise<{ queued: boolean }> {
  const commandId = askRenewalCommandIdOf(request.requestNumber, command.runId);
  return translateFailures(access, () => access.temporal.workflow.executeUpdateWithStart(askRenewalUpdate, {
    args: [{ ...command, commandId }], updateId: commandId, startWorkflowOperation: startOperation(access, request),
  }));
}
