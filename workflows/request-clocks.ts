/**
 * The request workflow's clocks (reminders, escalation, auto-close, signed-release expiry) as durable Temporal
 * timers. domain/request-clocks.ts decides when each clock is due and what it does; this class keeps the clock state
 * of one run, waits for the next clock with a timer named after it (its summary shows on the pending timer in the
 * Temporal UI), publishes it as the `RequestClock` and `RequestClockDue` search attributes, and hands the workflow
 * what to do when it falls due.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { condition, upsertSearchAttributes } from '@temporalio/workflow';
import type { ClockStartResult, RecordClockEffectInput } from './request-activities.types';
// Straight from the domain files, not the barrel (see workflows/request.workflow.ts).
import { EMAIL_TEMPLATE_TITLES } from '../domain/notification-template';
import { ESCALATION_ACTIVITY, REMINDER_ACTIVITY, SIGNED_RELEASE_ACTIVITY } from '../domain/audit-kinds';
import {
  autoCloseReason, CLOCK_ACTOR, CLOCK_TEMPLATE_TITLES, enterStatus, escalationAuditText, nextClock,
  releaseExpiredReason, releaseExpiredText, reminderAuditText,
  type ClockKind, type ClockPolicy, type ClockState, type DueClock,
} from '../domain/request-clocks';
import { applyLifecycleEvent, type LifecycleContext, type LifecycleEvent } from '../domain/request-lifecycle.machine';
import { STATUS, type RequestStatus } from '../domain/request-status';
import type { Actor, RequestWorkflowInput } from './request.messages';
import { RequestClockDueKey, RequestClockKey } from './search-attributes';

/**
 * What a clock that fell due asks of the workflow: a status change (under its mutex), or an audit row and an email.
 * Either names the clock: the activities keep it in columns (the audit row's, the clocks' state), never in the text.
 */
export type ClockAction =
  | { type: 'status'; event: LifecycleEvent; actor: Actor; extra: { templateTitle: string; reason: string; additionalInformation?: string; clock: ClockKind } }
  | { type: 'record'; record: Omit<RecordClockEffectInput, 'key' | 'requestId' | 'at' | 'clock'> & { clock: ClockKind } };

/** Reads what the clocks start from (the run's one read of PostgreSQL at its start, workflows/request/request-run.ts). */
export type ClockStartLoader = () => Promise<ClockStartResult>;

export class RequestClocks {
  private policy: ClockPolicy | null;
  private state: ClockState | null;
  private loading: Promise<void> | null = null;
  /** bumped at every change of the clock state: wakes the loop to arm the clock that is now next */
  private version = 0;
  private published = 'none';

  constructor(private readonly input: RequestWorkflowInput, private readonly loadStart: ClockStartLoader) {
    this.policy = input.clockPolicy ?? null;
    this.state = input.clockPolicy && input.clocks ? { ...input.clocks } : null;
  }

  /** Reads the worker's policy and the row's dates once per run (unless continue-as-new carried them). */
  ready(): Promise<void> {
    if (this.state) return Promise.resolve();
    this.loading ??= this.load();
    return this.loading;
  }

  private async load(): Promise<void> {
    const start = await this.loadStart();
    this.policy = this.input.clockPolicy ?? start.policy;
    this.state = {
      status: this.input.status,
      statusSince: start.statusSince ?? new Date().toISOString(),
      remindersSent: start.remindersSent,
      escalated: start.escalated,
      signedReleaseDate: start.signedReleaseDate,
      signedReleaseRecordedAt: start.signedReleaseRecordedAt,
      releaseExpiryHandled: start.releaseExpiryHandled,
    };
    this.version++;
  }

  private next(requestType: string): DueClock | null {
    return this.policy && this.state ? nextClock(this.policy, requestType, this.state) : null;
  }

  /** The clock the workflow waits on, for the `state` query. */
  describe(requestType: string): { kind: DueClock['kind']; dueAt: string; summary: string } | null {
    const due = this.next(requestType);
    return due ? { kind: due.kind, dueAt: new Date(due.dueAt).toISOString(), summary: due.summary } : null;
  }

  /** Operators find waiting requests by clock in the Temporal UI (RequestClock="escalation"). */
  private publish(due: DueClock | null): void {
    const pairs = this.unpublished(due);
    if (pairs.length) upsertSearchAttributes(pairs);
  }

  /** The clock's search attributes when they differ from the ones last published (and they count as published). */
  private unpublished(due: DueClock | null): SearchAttributeUpdatePair[] {
    const key = due ? `${due.kind}@${due.dueAt}` : 'none';
    if (key === this.published) return [];
    this.published = key;
    return [
      { key: RequestClockKey, value: due ? due.kind : null },
      { key: RequestClockDueKey, value: due ? new Date(due.dueAt) : null },
    ];
  }

  /**
   * The clock that is now next, published with the status in one upsert (`with`), so a status change writes one
   * search-attribute event instead of two; the loop then finds it published and arms its timer.
   */
  publishWith(requestType: string, with_: SearchAttributeUpdatePair[]): void {
    upsertSearchAttributes([...with_, ...this.unpublished(this.next(requestType))]);
  }

  /**
   * Waits until `wake` holds, the clock state changes, or the next clock falls due; answers the clock that fell due.
   * The timer is cancelled when something else wakes the loop first.
   */
  async waitFor(wake: () => boolean, requestType: string): Promise<DueClock | null> {
    const due = this.next(requestType);
    this.publish(due);
    const seen = this.version;
    const woken = () => wake() || this.version !== seen;
    if (!due) {
      await condition(woken);
      return null;
    }
    const fired = !(await condition(woken, Math.max(1, due.dueAt - Date.now()), { summary: due.summary }));
    return fired ? due : null;
  }

  /** Under the workflow's mutex: what the clock that fell due does now, or null when the request moved on meanwhile. */
  fire(due: DueClock, ctx: LifecycleContext, status: RequestStatus): ClockAction | null {
    const policy = this.policy!;
    const state = this.state!;
    const now = this.next(ctx.requestType);
    if (!now || now.kind !== due.kind || now.dueAt !== due.dueAt) return null;
    this.version++;
    const T = CLOCK_TEMPLATE_TITLES;
    switch (due.kind) {
      case 'reminder-1':
      case 'reminder-2': {
        const n = due.kind === 'reminder-1' ? 1 : 2;
        state.remindersSent = n;
        const days = policy.reminderAfterBusinessDays[n - 1];
        return { type: 'record', record: { activityType: REMINDER_ACTIVITY, activityText: reminderAuditText(n, days), templateTitle: T.reminder, clock: due.kind } };
      }
      case 'escalation':
        state.escalated = true;
        return {
          type: 'record',
          record: {
            activityType: ESCALATION_ACTIVITY, activityText: escalationAuditText(policy.escalateAfterBusinessDays), templateTitle: T.escalation, clock: due.kind,
          },
        };
      case 'auto-close':
        return {
          type: 'status', event: { type: 'SET_STATUS', status: STATUS.closed, verified: false }, actor: CLOCK_ACTOR,
          extra: { templateTitle: T.autoClosed, reason: autoCloseReason(policy.autoClose.afterBusinessDays), clock: due.kind },
        };
      case 'release-expiry': {
        state.releaseExpiryHandled = true;
        const day = state.signedReleaseDate!;
        const reason = releaseExpiredReason(day, policy.releaseValidityDays);
        const additionalInformation = releaseExpiredText(day, policy.releaseValidityDays);
        const toPending: LifecycleEvent = { type: 'SET_STATUS', status: STATUS.pendingAdditionalInformation, verified: false };
        if (applyLifecycleEvent(status, ctx, toPending).ok) {
          return {
            type: 'status', event: toPending, actor: CLOCK_ACTOR,
            extra: { templateTitle: EMAIL_TEMPLATE_TITLES.additionalInformationNeeded, reason, additionalInformation, clock: due.kind },
          };
        }
        // Already waiting on the requester: ask for the new release without a status change.
        return {
          type: 'record',
          record: {
            activityType: SIGNED_RELEASE_ACTIVITY, activityText: reason[0].toUpperCase() + reason.slice(1),
            templateTitle: EMAIL_TEMPLATE_TITLES.additionalInformationNeeded, additionalInformation, clock: due.kind,
          },
        };
      }
    }
  }

  /** The request entered a status (a command or a clock): the previous status's clocks stop, the new one's start. */
  statusEntered(status: RequestStatus, at: string): void {
    this.state = enterStatus(this.state!, status, at);
    this.version++;
  }

  releaseRecorded(signedReleaseDate: string, at: string): void {
    this.state = { ...this.state!, signedReleaseDate, signedReleaseRecordedAt: at, releaseExpiryHandled: false };
    this.version++;
  }

  /** What continue-as-new carries so every due instant survives it. */
  carryOver(): Pick<RequestWorkflowInput, 'clockPolicy' | 'clocks'> {
    return this.policy && this.state ? { clockPolicy: this.policy, clocks: { ...this.state } } : {};
  }
}
