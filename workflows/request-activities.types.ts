/**
 * Activity signatures of the request workflow. Declared beside the workflow that calls them;
 * activities/ implements them and imports this file, workflows/ never imports activities/ (the sandbox loads no
 * activity code, and the two folders do not import each other).
 */
import type { ClockKind, ClockPolicy, RequestStatus } from '../domain';

export interface ActorRef {
  name: string; email: string;
  /** the user, when a signed-in user acts (kept beside the name on the audit row); absent for the portal's own actors */
  userId?: number;
}

/** What a status change owes the requester: an email, or (completed statuses) a letter and an email. */
export interface EffectOrder { kind: 'email' | 'letter-and-email'; templateTitle: string }

export interface RecordStatusInput {
  /** `<workflowId>:<runId>:<seq>`: unique across runs; the audit row and the effect row carry it. */
  key: string;
  requestId: number;
  previousStatus: RequestStatus;
  status: RequestStatus;
  /** workflow time of the change (ISO) */
  at: string;
  submitted: boolean;
  /** ISO when the status stamps a completion time; null clears it (Reopen, open statuses). */
  completedDate: string | null;
  verified?: boolean;
  internalNotes?: string | null;
  actor: ActorRef;
  /** the command's id (its update id), remembered on the request so a repeat is answered like the first */
  commandId: string | null;
  /** written in the same transaction, with a snapshot of the request as it is at this change */
  effect: EffectOrder | null;
  /**
   * a second email the change owes (a resubmission's Submission Confirmation to the requester), keyed apart and
   * written in the same transaction, with its own recipients
   */
  alsoEmail?: { key: string; templateTitle: string };
  /** why the portal made this change by itself (a clock): appended to the audit text */
  reason?: string;
  /** the clock that made this change (auto-close, release-expiry), kept in a column of the audit row */
  clock?: ClockKind;
  /** the email's `{{additionalInformation}}` (what is asked of the requester) */
  additionalInformation?: string;
}

/** What a run needs to keep the request's clocks: the worker's policy and what PostgreSQL knows of the request. */
export interface ClockStartResult {
  policy: ClockPolicy;
  /** when the request entered its current status (its last status audit row), or null */
  statusSince: string | null;
  /** reminders sent and whether it was escalated since then (a run re-created for an open request repeats neither) */
  remindersSent: number;
  escalated: boolean;
  signedReleaseDate: string | null;
  signedReleaseRecordedAt: string | null;
  /** the recorded release's expiry was already acted on (by an earlier run) */
  releaseExpiryHandled: boolean;
}

/**
 * What a fresh run reads of PostgreSQL, in one round trip: the effects an earlier run owed and the clocks' start,
 * each unless continue-as-new carried it.
 */
export interface RunStartInput { requestId: number; owed: boolean; clock: boolean }
export interface RunStartResult { owed: EffectRef[]; clockStart: ClockStartResult | null }

/** A clock fired (reminder, escalation, expired release on a request that cannot move): its audit row and email. */
export interface RecordClockEffectInput {
  key: string;
  requestId: number;
  at: string;
  activityType: string;
  activityText: string;
  templateTitle: string;
  additionalInformation?: string;
  /** the clock that fired (its audit row names it, the clocks' state moves by it); required by the activity */
  clock?: ClockKind;
}

/** The administrator recorded the signed release date (credentialing, when verifying). */
export interface RecordSignedReleaseInput { key: string; requestId: number; signedReleaseDate: string; at: string; actor: ActorRef }

/**
 * An administrator's Save without a status change: the verification and the internal notes (each only when given),
 * with one Field Edit audit row naming what changed, and the command that did it.
 */
export interface RecordAdminFieldsInput {
  key: string; requestId: number; verified?: boolean; internalNotes?: string | null; actor: ActorRef; commandId: string;
}

export interface QueueEmailInput {
  key: string;
  requestId: number;
  templateTitle: string;
  /** audit row of a failed email this one sends again */
  retryOf: number | null;
  actor: ActorRef;
  /** chosen by the administrator (requester first); absent: the request's own recipients */
  recipients?: string[];
}

/** An effect the workflow carries out; its row in `request_effects` holds the rest. `letter`: rendered, not emailed. */
export interface EffectRef { key: string; kind: 'email' | 'letter-and-email' | 'letter'; templateTitle: string }

/** generate-pdfs: the effect of a regenerated letter (and its email), keyed by the command. */
export interface QueueLetterInput { key: string; requestId: number; sendWithEmail: boolean; templateTitle: string; actor: ActorRef }
export interface QueueLetterResult { effect: EffectRef; state: 'pending' | 'sent' | 'failed' }

/** An administrator revokes an issued certificate or claim-history letter: the record, its audit row and the email, keyed by the command. */
export interface RevokeCertificateInput {
  key: string; requestId: number; code: string; reason: string; note: string | null; actor: ActorRef;
  /** the administrator's user id (revoked_by) */
  revokedBy: number | null;
}
export interface RevokeCertificateResult { effect: EffectRef; state: 'pending' | 'sent' | 'failed'; revokedAt: string }

/**
 * Renewal season (domain/renewals.ts): the request's certificate reissued for a new policy year, once per request and
 * year (table request_renewals), with its audit row and the letter-and-email effect, keyed by the command.
 * `already`: another run (or an earlier command) renewed it for that year; nothing is queued.
 */
export interface RenewCertificateInput { key: string; requestId: number; policyYearId: number; runId: number | null; actor: ActorRef }
export interface RenewCertificateResult {
  outcome: 'renewed' | 'already'; effect: EffectRef | null; state: 'pending' | 'sent' | 'failed' | 'none'; note: string | null;
  /** the run that renewed it (null: not a run's) */
  byRunId: number | null;
}
/** The renewal question to the requester: the email effect with its answer links and the audit row, keyed by the command. */
export interface AskRenewalInput { key: string; requestId: number; runId: number; actor: ActorRef }
export interface AskRenewalResult { effect: EffectRef | null; state: 'pending' | 'sent' | 'failed' | 'none' }

export interface EffectKeyInput { key: string }
export interface EffectFailureInput { key: string; reason: string }
export interface SendEffectEmailResult { messageId: string; recipients: string[]; possiblyTwice: boolean; alreadySent: boolean }

/** A discussion message reached the workflow: its email effect and audit row, keyed by the message. */
export interface QueueDiscussionEmailInput { requestId: number; discussionRowId: number }
export interface QueueDiscussionEmailResult { effect: EffectRef | null; state: 'pending' | 'sent' | 'failed' | 'none' }

/** After a submit: does an instant-certificate rule issue this request (decided once per key)? */
export interface DecideInstantIssueInput { key: string; requestId: number }
export interface DecideInstantIssueResult {
  issue: boolean;
  /** "Rule: <name> v<version>": the approval's actor */
  actorName: string | null;
}

export interface RequestActivities {
  decideInstant(input: DecideInstantIssueInput): Promise<DecideInstantIssueResult>;
  queueDiscussionEmail(input: QueueDiscussionEmailInput): Promise<QueueDiscussionEmailResult>;
  recordStatus(input: RecordStatusInput): Promise<void>;
  queueEmail(input: QueueEmailInput): Promise<EffectRef>;
  /** a `letter` effect's letter (regenerated on demand), on the letters task queue */
  renderEffectLetter(input: EffectKeyInput): Promise<{ documentId: number }>;
  sendEffectEmail(input: EffectKeyInput): Promise<SendEffectEmailResult>;
  /** a `letter-and-email` effect's letter and email in one activity, on the letters task queue */
  issueLetterAndEmail(input: EffectKeyInput): Promise<SendEffectEmailResult>;
  recordEffectFailure(input: EffectFailureInput): Promise<void>;
  queueLetter(input: QueueLetterInput): Promise<QueueLetterResult>;
  /** a `letter` effect whose letter is made: nothing more is owed */
  finishLetterEffect(input: EffectKeyInput): Promise<void>;
  runStart(input: RunStartInput): Promise<RunStartResult>;
  recordClockEffect(input: RecordClockEffectInput): Promise<EffectRef>;
  recordSignedRelease(input: RecordSignedReleaseInput): Promise<void>;
  recordAdminFields(input: RecordAdminFieldsInput): Promise<void>;
  revokeCertificate(input: RevokeCertificateInput): Promise<RevokeCertificateResult>;
  renewCertificate(input: RenewCertificateInput): Promise<RenewCertificateResult>;
  askRenewal(input: AskRenewalInput): Promise<AskRenewalResult>;
}
