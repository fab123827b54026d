/**
 * One run of the request workflow: its state and what each message does, as Temporal's samples write an entity
 * workflow (message-passing/safe-message-handlers): a class holding the state, the handlers as its methods, and a
 * named mutex for the handlers that must not interleave.
 */
import { ApplicationFailure, log, patched, workflowInfo } from '@temporalio/workflow';
import { Mutex } from 'async-mutex';
// Straight from the domain files, not the barrel: every new run evaluates the bundle's modules again, and the barrel
// would bring the whole domain (forms, registration, admin desk) into each submit's workflow.
import { revokeErrors } from '../../domain/issued-letters';
import { RENEWAL_MESSAGES } from '../../domain/renewals';
import { ALL_EMAIL_TEMPLATE_TITLES, notificationTemplateFor, requesterConfirmationFor } from '../../domain/notification-template';
import type { ClockKind, DueClock } from '../../domain/request-clocks';
import { applyLifecycleEvent, type LifecycleEvent } from '../../domain/request-lifecycle.machine';
import { generatesLetter, isFinished, stampsCompletionDate, STATUS, type RequestStatus } from '../../domain/request-status';
import { asPartOf, currentReqId } from '../log-context';
import type { EffectRef, RunStartResult } from '../request-activities.types';
import { RequestClocks, type ClockAction } from '../request-clocks';
import {
  letterEffectKeyOf, renewEffectKeyOf, revokeEffectKeyOf,
  type Actor, type AdminSaveCommand, type AskRenewalCommand, type RenewCommand, type RenewResult, type DiscussionPostedCommand, type DiscussionPostedResult, type GenerateLetterCommand, type GenerateLetterResult,
  type RecordSignedReleaseCommand, type ReopenCommand, type RequestWorkflowInput, type RequestWorkflowState,
  type RevokeCertificateCommand, type RevokeCertificateResult, type SendEmailCommand, type SendEmailResult,
  type SetStatusCommand, type StatusResult, type SubmitCommand, type WakeCommand,
} from '../request.messages';
import { RequestStatusKey } from '../search-attributes';
import { carryOut, failureReason } from './effects';
import { localReads, records } from './activities';

interface ChangeExtra {
  verified?: boolean; internalNotes?: string | null;
  /** a clock's change: its own email instead of the status's, the reason in the audit row, the email's request */
  templateTitle?: string; reason?: string; additionalInformation?: string; clock?: ClockKind;
}

/** The patch that added instant certificates to submits (docs/OPERATIONS.md: the first change to a workflow after a release). */
export const INSTANT_PATCH = 'instant-certificates';

const RENEWAL_NOT_APPROVED = RENEWAL_MESSAGES.notApproved;
const refuse = (message: string) => ApplicationFailure.nonRetryable(message, 'BadRequest');

export class RequestRun {
  readonly state: RequestWorkflowState;
  /** Effects owed, oldest first; the main loop carries them out one after another. */
  private readonly queue: EffectRef[];
  private readonly clocks: RequestClocks;
  /**
   * One change at a time (a status change, a clock that fell due, a signed release, a revocation): handlers
   * interleave at every await, and each change must start from the status the previous one left.
   */
  private readonly changes = new Mutex();
  /**
   * The command each queued effect came from, for the log lines of its activities (workflows/log-context.ts). Kept
   * beside the queue, not in it: neither history nor state changes, and a replay rebuilds it by re-running handlers.
   */
  private readonly reqIdOfEffect = new Map<string, string | undefined>();
  /**
   * The run's one read of PostgreSQL (the owed effects and the clocks' start, each unless continue-as-new carried
   * it), started before any handler runs. It is the run's only local activity, and everything that needs it awaits
   * this one promise. Local activities must run one at a time, in the order the code asks for them: two in flight
   * may finish in an order a replay does not reproduce, which then meets the history's commands in another order and
   * fails as non-deterministic. A second read added here must await the first (or take `changes`).
   */
  private readonly startRead: Promise<RunStartResult> | null;
  /** a submit asked the office's instant-certificate rules to judge the request (the main loop does it) */
  private instantDue = false;

  constructor(private readonly input: RequestWorkflowInput) {
    this.state = {
      requestId: input.requestId,
      requestNumber: input.requestNumber,
      requestType: input.requestType,
      certificateType: input.certificateType ?? null,
      status: input.status,
      effectSeq: 0,
      pendingEffects: 0,
      lastCommandId: input.lastCommandId ?? null,
    };
    this.queue = [...(input.pendingEffects ?? [])];
    const owed = !input.pendingEffects;
    const clock = !(input.clockPolicy && input.clocks);
    this.startRead = owed || clock ? localReads.runStart({ requestId: input.requestId, owed, clock }) : null;
    this.clocks = new RequestClocks(input, async () => (await this.startRead!).clockStart!);
  }

  /** Effects an earlier run owed and never carried out (it was terminated or reset) go first; then the clocks start. */
  async takeOverOwedEffects(): Promise<void> {
    if (!this.input.pendingEffects) {
      const { owed } = await this.startRead!;
      this.queue.unshift(...owed.filter((e) => !this.queue.some((q) => q.key === e.key)));
    }
    await this.clocks.ready();
  }

  describe(): RequestWorkflowState {
    return { ...this.state, pendingEffects: this.queue.length, clock: this.clocks.describe(this.state.requestType) };
  }

  // ---- Status commands (updates) and their validators ----

  /**
   * A validator judges against the status as it stands. While a change is under way (its status write may already
   * be in PostgreSQL, and a replay may deliver this update before that write's result), the status is about to
   * move: accept, and let the handler judge under the mutex, after the change in flight has landed.
   */
  private refuseIfIllegal(event: LifecycleEvent, commandId?: string): void {
    if (this.isRepeat(commandId) || this.changes.isLocked()) return;
    const outcome = applyLifecycleEvent(this.state.status, this.context(), event);
    if (!outcome.ok) throw refuse(outcome.message);
  }

  validateSubmit({ commandId }: SubmitCommand): void {
    if (this.state.status !== STATUS.submitted) this.refuseIfIllegal({ type: 'SUBMIT' }, commandId);
  }
  validateSetStatus({ status, verified, commandId }: SetStatusCommand): void {
    this.refuseIfIllegal({ type: 'SET_STATUS', status, verified }, commandId);
  }
  validateReopen({ commandId }: ReopenCommand): void {
    this.refuseIfIllegal({ type: 'REOPEN' }, commandId);
  }
  validateWake({ reason, commandId }: WakeCommand): void {
    this.refuseIfIllegal({ type: 'WAKE', reason }, commandId);
  }

  async submit({ actor, commandId }: SubmitCommand): Promise<StatusResult> {
    const before = this.state.status;
    const result = await this.change({ type: 'SUBMIT' }, actor, commandId, {});
    // A certificate just (re)submitted may issue itself under the office's rules: decided by the main loop once the
    // submit has answered, so the requester's call never waits for it. Older runs' histories have no such step.
    if (before !== STATUS.submitted && result.status === STATUS.submitted && this.state.requestType === 'certificate' && patched(INSTANT_PATCH)) {
      this.instantDue = true;
    }
    return result;
  }
  setStatus({ status, verified, internalNotes, actor, commandId }: SetStatusCommand): Promise<StatusResult> {
    return this.change({ type: 'SET_STATUS', status, verified }, actor, commandId, { verified, internalNotes });
  }
  reopen({ actor, commandId }: ReopenCommand): Promise<StatusResult> {
    return this.change({ type: 'REOPEN' }, actor, commandId, {});
  }
  /** What a waiting request waited for arrived (the wake-up workflow): back to Submitted by the system actor. */
  wake({ reason, note, actor, commandId }: WakeCommand): Promise<StatusResult> {
    return this.change({ type: 'WAKE', reason }, actor, commandId, { reason: note });
  }

  private change(event: LifecycleEvent, actor: Actor, commandId: string, extra: ChangeExtra): Promise<StatusResult> {
    return this.changes.runExclusive(async () => {
      if (this.isRepeat(commandId)) return this.result();
      // A submit repeated while the first is on its way (the requester retried) answers like the first.
      if (event.type === 'SUBMIT' && this.state.status === STATUS.submitted) return this.result();
      return this.applyChange(event, actor, commandId, extra);
    });
  }

  /**
   * Under the mutex: a legal change's status write, audit row and effects (one transaction, with a snapshot of the
   * request as it is now), then the clocks, and the status with the clock it starts in one search-attribute upsert.
   */
  private async applyChange(event: LifecycleEvent, actor: Actor, commandId: string | undefined, extra: ChangeExtra): Promise<StatusResult> {
    const state = this.state;
    const outcome = applyLifecycleEvent(state.status, this.context(), event);
    if (!outcome.ok) throw refuse(outcome.message);
    await this.clocks.ready();
    const previousStatus = state.status;
    const status = outcome.status;
    const key = this.nextKey();
    const at = new Date().toISOString(); // workflow time: deterministic on replay
    const templateTitle = extra.templateTitle ?? notificationTemplateFor({ requestType: state.requestType, previousStatus, newStatus: status });
    const effect = templateTitle ? { kind: generatesLetter(status) ? 'letter-and-email' as const : 'email' as const, templateTitle } : null;
    // A resubmission also confirms itself to the requester (domain/notification-template.ts); a clock's change does not.
    const confirmation = extra.templateTitle ? null : requesterConfirmationFor({ requestType: state.requestType, previousStatus, newStatus: status });
    const alsoEmail = confirmation ? { key: this.nextKey(), templateTitle: confirmation } : null;
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
    if (effect) this.enqueue({ key, ...effect });
    if (alsoEmail) this.enqueue({ ...alsoEmail, kind: 'email' });
    this.clocks.statusEntered(status, at);
    this.clocks.publishWith(state.requestType, [{ key: RequestStatusKey, value: status }]);
    return this.result();
  }

  // ---- Other commands ----

  validateSendEmail({ templateTitle }: SendEmailCommand): void {
    if (!ALL_EMAIL_TEMPLATE_TITLES.includes(templateTitle)) throw refuse(`Unknown email template "${templateTitle}"`);
  }
  async sendEmail({ templateTitle, retryOf, actor, recipients }: SendEmailCommand): Promise<SendEmailResult> {
    const effect = await records.queueEmail({ key: this.nextKey(), requestId: this.state.requestId, templateTitle, retryOf, actor, ...(recipients ? { recipients } : {}) });
    this.enqueue(effect);
    return { queued: true, templateTitle };
  }

  validateRecordSignedRelease({ signedReleaseDate }: Pick<RecordSignedReleaseCommand, 'signedReleaseDate'>): void {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(signedReleaseDate)) throw refuse('Date input not valid.');
    if (this.state.requestType !== 'credentialing') throw refuse('Only claim history requests have a signed release');
    if (isFinished(this.state.status)) throw refuse('This request is finished');
  }
  /** The signed release date (credentialing, recorded when verifying): written with an audit row; arms its expiry. */
  recordSignedRelease({ signedReleaseDate, actor }: RecordSignedReleaseCommand): Promise<{ signedReleaseDate: string }> {
    return this.changes.runExclusive(async () => {
      await this.clocks.ready();
      const at = new Date().toISOString();
      await records.recordSignedRelease({ key: this.nextKey(), requestId: this.state.requestId, signedReleaseDate, at, actor });
      this.clocks.releaseRecorded(signedReleaseDate, at);
      return { signedReleaseDate };
    });
  }

  validateAdminSave({ status, verified, signedReleaseDate, commandId }: AdminSaveCommand): void {
    if (this.isRepeat(commandId)) return;
    if (signedReleaseDate !== undefined) this.validateRecordSignedRelease({ signedReleaseDate });
    if (status !== undefined) this.refuseIfIllegal(this.adminSaveEvent(status, verified), commandId);
  }
  /**
   * An administrator's Save, whole, under the mutex: the signed release first (a status change may finish the
   * request), then the status change with the verification and notes, or, without one, the verification and notes.
   */
  adminSave({ status, verified, internalNotes, signedReleaseDate, actor, commandId }: AdminSaveCommand): Promise<StatusResult> {
    return this.changes.runExclusive(async () => {
      if (this.isRepeat(commandId)) return this.result();
      if (signedReleaseDate !== undefined) {
        await this.clocks.ready();
        const at = new Date().toISOString();
        await records.recordSignedRelease({ key: this.nextKey(), requestId: this.state.requestId, signedReleaseDate, at, actor });
        this.clocks.releaseRecorded(signedReleaseDate, at);
      }
      if (status !== undefined) return this.applyChange(this.adminSaveEvent(status, verified), actor, commandId, { verified, internalNotes });
      if (verified !== undefined || internalNotes !== undefined) {
        await records.recordAdminFields({ key: this.nextKey(), requestId: this.state.requestId, verified, internalNotes, actor, commandId });
      }
      this.state.lastCommandId = commandId;
      return this.result();
    });
  }
  private adminSaveEvent(status: RequestStatus, verified: boolean | undefined): LifecycleEvent {
    return status === STATUS.draft ? { type: 'REOPEN' } : { type: 'SET_STATUS', status, verified: verified ?? false };
  }

  /**
   * A message posted on the request: its `Request Discussion` effect and audit row are keyed by the message, so a
   * second delivery (even to a later run) finds them and queues nothing new unless the email is still owed.
   */
  async discussionPosted({ discussionRowId }: DiscussionPostedCommand): Promise<DiscussionPostedResult> {
    const { effect, state } = await records.queueDiscussionEmail({ requestId: this.state.requestId, discussionRowId });
    if (!effect || state !== 'pending') return { queued: false };
    this.enqueueOnce(effect);
    return { queued: true };
  }

  /** generate-pdfs: the effect is keyed by the command, so a repeat finds its row; the main loop renders it. */
  async generateLetter({ commandId, sendWithEmail, templateTitle, actor }: GenerateLetterCommand): Promise<GenerateLetterResult> {
    const { effect, state } = await records.queueLetter({ key: letterEffectKeyOf(commandId), requestId: this.state.requestId, sendWithEmail, templateTitle, actor });
    if (state === 'pending') this.enqueueOnce(effect);
    return { effectKey: effect.key };
  }

  validateRevokeCertificate({ reason, note }: RevokeCertificateCommand): void {
    const errors = revokeErrors({ reason, note });
    const message = errors.reason ?? errors.note;
    if (message) throw refuse(message);
  }
  /** Under the mutex, so the run cannot end between the record and queueing the requester's email. */
  revokeCertificate({ commandId, code, reason, note, actor, revokedBy }: RevokeCertificateCommand): Promise<RevokeCertificateResult> {
    return this.changes.runExclusive(async () => {
      const { effect, state, revokedAt } = await records.revokeCertificate({
        key: revokeEffectKeyOf(commandId), requestId: this.state.requestId, code, reason, note, actor, revokedBy,
      });
      if (state === 'pending') this.enqueueOnce(effect);
      return { revokedAt };
    });
  }

  /** Only an approved certificate renews (domain/renewals.ts); the activity judges the rest under its lock. */
  validateRenew(_command: RenewCommand | AskRenewalCommand): void {
    if (this.state.requestType !== 'certificate' || this.state.status !== STATUS.approved) throw refuse(RENEWAL_NOT_APPROVED);
  }
  /**
   * Renewal season: the certificate reissued for a new policy year. Under the mutex, like a revocation, so the run
   * cannot end between the record and queueing its letter; the effect is keyed by the command.
   */
  renew({ commandId, policyYearId, runId, actor }: RenewCommand): Promise<RenewResult> {
    return this.changes.runExclusive(async () => {
      const result = await records.renewCertificate({ key: renewEffectKeyOf(commandId), requestId: this.state.requestId, policyYearId, runId, actor });
      if (result.effect && result.state === 'pending') this.enqueueOnce(result.effect);
      return { outcome: result.outcome, effectKey: result.effect?.key ?? null, note: result.note, byRunId: result.byRunId };
    });
  }
  /** The renewal question of a run, once per run (keyed by the command). */
  askRenewal({ commandId, runId, actor }: AskRenewalCommand): Promise<{ queued: boolean }> {
    return this.changes.runExclusive(async () => {
      const { effect, state } = await records.askRenewal({ key: renewEffectKeyOf(commandId), requestId: this.state.requestId, runId, actor });
      if (effect && state === 'pending') this.enqueueOnce(effect);
      return { queued: !!effect };
    });
  }

  // ---- What the main loop does ----

  /**
   * Waits for work, the end, a suggestion to continue as new, or the next clock (a durable timer named after what it
   * waits for); a command that moves the clocks wakes it too, and the clock that is now next is armed.
   */
  waitForWork(): Promise<DueClock | null> {
    const wake = () => this.instantDue || this.queue.length > 0 || this.finishedAndIdle() || workflowInfo().continueAsNewSuggested;
    return this.clocks.waitFor(wake, this.state.requestType);
  }

  /**
   * A clock fell due: under the mutex, what domain/request-clocks.ts says it does. It is no command's: its activities
   * log without a reqId. A clock that cannot be carried out (its request row is gone) is logged, never the end.
   */
  fireClock(due: DueClock): Promise<void> {
    return asPartOf(undefined, () => this.changes.runExclusive(async () => {
      const action = this.clocks.fire(due, this.context(), this.state.status);
      if (action) await this.carryOutClock(action).catch((error) => log.warn('request clock failed', { kind: due.kind, reason: failureReason(error) }));
    }));
  }

  private async carryOutClock(action: ClockAction): Promise<void> {
    if (action.type === 'status') {
      await this.applyChange(action.event, action.actor, undefined, action.extra);
      return;
    }
    const effect = await records.recordClockEffect({ key: this.nextKey(), requestId: this.state.requestId, at: new Date().toISOString(), ...action.record });
    this.enqueue(effect);
  }

  /**
   * Under the mutex, after a submit: the decision (an activity, once per key) and, when a rule issues the request,
   * its approval by the rule's actor; everything an approval owes follows as for a person's. A request that moved on
   * meanwhile (an administrator acted first) is left as it is.
   */
  async decideInstantIfDue(): Promise<void> {
    if (!this.instantDue) return;
    this.instantDue = false;
    await this.changes.runExclusive(async () => {
      if (this.state.status !== STATUS.submitted) return;
      const decision = await records.decideInstant({ key: this.nextKey(), requestId: this.state.requestId });
      if (!decision.issue || this.state.status !== STATUS.submitted) return;
      const event: LifecycleEvent = { type: 'SET_STATUS', status: STATUS.approved, verified: true };
      if (!applyLifecycleEvent(this.state.status, this.context(), event).ok) return;
      await this.applyChange(event, { name: decision.actorName!, email: '' }, undefined, { verified: true, reason: 'issued instantly under the office\'s rule' });
    });
  }

  /** The effects owed, one after another, each under the reqId of the command it came from. */
  async carryOutEffects(): Promise<void> {
    while (this.queue.length > 0) {
      const effect = this.queue[0];
      await asPartOf(this.reqIdOfEffect.get(effect.key), () => carryOut(effect));
      this.reqIdOfEffect.delete(effect.key);
      this.queue.shift();
    }
  }

  /** The request is decided and owes nothing: the run may end (a later command starts a new one). */
  finishedAndIdle(): boolean {
    return isFinished(this.state.status) && this.idle();
  }

  idle(): boolean {
    return this.queue.length === 0 && !this.instantDue && !this.changes.isLocked();
  }

  /** The next run's input: the state, and the clocks so that every due instant survives continue-as-new. */
  carryOver(): RequestWorkflowInput {
    const { requestId, requestNumber, requestType, certificateType, status, lastCommandId } = this.state;
    return { requestId, requestNumber, requestType, certificateType, status, lastCommandId, pendingEffects: [], ...this.clocks.carryOver() };
  }

  // ---- Helpers ----

  private context() {
    return { requestType: this.state.requestType, certificateType: this.state.certificateType };
  }
  private result(): StatusResult {
    return { status: this.state.status, requestNumber: this.state.requestNumber };
  }
  private isRepeat(commandId?: string): boolean {
    return !!commandId && commandId === this.state.lastCommandId;
  }
  /** `<workflowId>:<runId>:<seq>`: unique across runs, so a retry never repeats an effect and no key repeats in another run. */
  private nextKey(): string {
    const { workflowId, runId } = workflowInfo();
    return `${workflowId}:${runId}:${++this.state.effectSeq}`;
  }
  private enqueue(effect: EffectRef): void {
    this.reqIdOfEffect.set(effect.key, currentReqId());
    this.queue.push(effect);
  }
  private enqueueOnce(effect: EffectRef): void {
    if (!this.queue.some((q) => q.key === effect.key)) this.enqueue(effect);
  }
}
