/**
 * Messages of the request workflow, defined once and imported by the workflow and by its callers (the API).
 * Safe for the workflow bundle: only @temporalio/workflow and domain types.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { CertificateType, ClockKind, ClockPolicy, ClockState, RequestStatus, RequestType, WakeReason } from '../domain';

export interface Actor {
  name: string; email: string;
  /** the signed-in user who acts (the audit row keeps it beside the name); absent for the portal's own actors */
  userId?: number;
}

export interface RequestWorkflowInput {
  requestId: number;
  requestNumber: number;
  requestType: RequestType;
  certificateType?: CertificateType | null;
  status: RequestStatus;
  /** The last command applied to the request (PostgreSQL `last_command_id`): a repeat of it answers like the first. */
  lastCommandId?: string | null;
  /** Effects still owed, carried across continue-as-new (a fresh start reads them from PostgreSQL instead). */
  pendingEffects?: PendingEffect[];
  /**
   * The clocks' policy and state (domain/request-clocks.ts), carried across continue-as-new so a due instant
   * survives it. A fresh start reads both once (local activity `runStart`: the worker's policy, the row's dates).
   */
  clockPolicy?: ClockPolicy;
  clocks?: ClockState;
}

/** `letter`: a letter regenerated on demand (generate-pdfs without sendWithEmail): rendered, never emailed. */
export interface PendingEffect { key: string; kind: 'email' | 'letter-and-email' | 'letter'; templateTitle: string }

export interface RequestWorkflowState {
  requestId: number;
  requestNumber: number;
  requestType: RequestType;
  certificateType: CertificateType | null;
  status: RequestStatus;
  effectSeq: number;
  pendingEffects: number;
  lastCommandId?: string | null;
  /** what the workflow's timer waits for now (operators: also the RequestClock search attribute and the timer's summary) */
  clock?: { kind: ClockKind; dueAt: string; summary: string } | null;
}

/**
 * `commandId` derives from the command (request, target, the version the caller saw) and is also the update id:
 * the same press answers the same.
 */
export interface SubmitCommand { actor: Actor; commandId: string }
export interface SetStatusCommand { status: RequestStatus; verified: boolean; internalNotes?: string | null; actor: Actor; commandId: string }
export interface ReopenCommand { actor: Actor; commandId: string }
export interface StatusResult { status: RequestStatus; requestNumber: number }
/** Send a template email for the request; `retryOf` is the audit row id of a failed email sent again. */
export interface SendEmailCommand {
  templateTitle: string; retryOf: number | null; actor: Actor; commandId: string;
  /** chosen in the send dialog (requester first); absent: the request's own recipients */
  recipients?: string[] | null;
}
export interface SendEmailResult { queued: true; templateTitle: string }

export const submitUpdate = defineUpdate<StatusResult, [SubmitCommand]>('submit');
export const setStatusUpdate = defineUpdate<StatusResult, [SetStatusCommand]>('setStatus');
export const reopenUpdate = defineUpdate<StatusResult, [ReopenCommand]>('reopen');
export const sendEmailUpdate = defineUpdate<SendEmailResult, [SendEmailCommand]>('sendEmail');
/**
 * A discussion message was posted (the row is in PostgreSQL). The update id is `discussion:<requestNumber>:<rowId>`:
 * a repeated delivery is the same update, and the effect row is keyed by the message besides.
 */
export interface DiscussionPostedCommand { discussionRowId: number; actor: Actor }
export interface DiscussionPostedResult { queued: boolean }
export const discussionPostedUpdate = defineUpdate<DiscussionPostedResult, [DiscussionPostedCommand]>('discussionPosted');
/**
 * What a waiting request waited for arrived (domain/wake-ups.ts): back to Submitted through the lifecycle machine,
 * by the system actor. Sent by the wake-up workflow (workflows/wake-up.workflow.ts) with the update id
 * `wake:<number>:<reason>:<policyId|personId>:v<version>`: a repeated or concurrent delivery applies once.
 */
export interface WakeCommand { reason: WakeReason; note: string; actor: Actor; commandId: string }
export const wakeUpdate = defineUpdate<StatusResult, [WakeCommand]>('wake');

/**
 * `generate-pdfs` (spec 2 §7.7): regenerate the request's letter or certificate and, with `sendWithEmail`, email it
 * with the approval template. The update id is the command id (derived from the command by the API); the effect is
 * keyed by it too, so a repeat (same run or a later one) renders and sends nothing more. The update answers once the
 * effect is queued; the letter activity renders it in turn with the usual retries and audit rows.
 */
export interface GenerateLetterCommand { commandId: string; sendWithEmail: boolean; templateTitle: string; actor: Actor }
export interface GenerateLetterResult { effectKey: string }
export const generateLetterUpdate = defineUpdate<GenerateLetterResult, [GenerateLetterCommand]>('generateLetter');
export const letterEffectKeyOf = (commandId: string) => `effect:${commandId}`;
export const stateQuery = defineQuery<RequestWorkflowState>('state');
/**
 * An administrator revokes an issued certificate or claim-history letter (its verification code, normalized) for a
 * reason category of domain/issued-letters.ts. The update id is the command id (`revoke:<number>:<code>`): a repeated
 * press is the same update. The record, its audit row and the requester's email effect are written together; the
 * email goes out like any other effect.
 */
export interface RevokeCertificateCommand { commandId: string; code: string; reason: string; note: string | null; actor: Actor; revokedBy: number | null }
export interface RevokeCertificateResult { revokedAt: string }
export const revokeCertificateUpdate = defineUpdate<RevokeCertificateResult, [RevokeCertificateCommand]>('revokeCertificate');
export const revokeEffectKeyOf = (commandId: string) => `effect:${commandId}`;
/**
 * The administrator recorded the signed release date of a credentialing request (`yyyy-mm-dd`, validated by the API
 * with domain/request-clocks.ts). The workflow writes it with an audit row and arms the release expiry.
 */
export interface RecordSignedReleaseCommand { signedReleaseDate: string; actor: Actor; commandId: string }
export const recordSignedReleaseUpdate = defineUpdate<{ signedReleaseDate: string }, [RecordSignedReleaseCommand]>('recordSignedRelease');
/**
 * An administrator's Save on a submitted request, whole: a status change (Draft: Reopen) and what goes with it, the
 * verification, the internal notes and the signed release date, each only when it changes. One update, so the
 * workflow is the one writer of all four and a Save lands whole or not at all. The update id is the command id
 * (`save:<number>:<what it changes>:v<version>`): the same Save pressed again is the same update.
 */
export interface AdminSaveCommand {
  status?: RequestStatus; verified?: boolean; internalNotes?: string | null; signedReleaseDate?: string;
  actor: Actor; commandId: string;
}
export const adminSaveUpdate = defineUpdate<StatusResult, [AdminSaveCommand]>('adminSave');

/**
 * Renewal season (domain/renewals.ts): reissue the request's certificate for a new policy year ("Renewed for <year>"),
 * emailed to the requester and the holder; the update id is `renew:<number>:py<yearId>` whichever run asks, and
 * PostgreSQL keeps one renewal per request and year besides, so two runs never renew one request twice.
 */
export interface RenewCommand { commandId: string; policyYearId: number; runId: number | null; actor: Actor }
export interface RenewResult { outcome: 'renewed' | 'already'; effectKey: string | null; note: string | null; byRunId: number | null }
export const renewUpdate = defineUpdate<RenewResult, [RenewCommand]>('renew');
export const renewEffectKeyOf = (commandId: string) => `effect:${commandId}`;
/** Ask the requester "Do you still need this certificate?" for a run (`ask-renewal:<number>:run<id>`): one email per run. */
export interface AskRenewalCommand { commandId: string; runId: number; actor: Actor }
export const askRenewalUpdate = defineUpdate<{ queued: boolean }, [AskRenewalCommand]>('askRenewal');

export const REQUEST_WORKFLOW_TYPE = 'requestWorkflow';
export const requestWorkflowId = (requestNumber: number) => `request-${requestNumber}`;

/**
 * Letters (Chromium) run on a task queue of their own, so a backlog of PDFs never delays the activities an
 * administrator's Save waits for (bench/README.md: approve p95 fell from 8 s once they were apart).
 */
export const letterTaskQueue = (taskQueue: string) => `${taskQueue}-letters`;
