/**
 * The one lifecycle of a request (spec 1 §4). The workflow's update validators and the UI's enabled buttons both
 * ask this machine what may follow what; nothing else in the code base decides it.
 *
 * Pure: no delays, no clocks, no side effects. Use `snapshotFor` + `transition`/`can` (see STACK-NOTES).
 * Editing this file changes running workflows: guard changes with `patched()` in the workflow.
 */
import { setup, transition, type SnapshotFrom } from 'xstate';
import { MESSAGES } from './messages';
import { CONTRACTS_CERTIFICATE, type CertificateType, type RequestType } from './reference-lists';
import {
  ALL_STATUSES, COMPLETED_STATUSES, FINISHED_STATUSES, STATUS, statusKeyOf, type RequestStatus, type StatusKey,
} from './request-status';
import { WAITING_STATUS, wakeReasonOf, type WakeReason } from './wake-ups';

export interface LifecycleContext {
  requestType: RequestType;
  certificateType?: CertificateType | null;
}

export type LifecycleEvent =
  | { type: 'SUBMIT' }
  | { type: 'SET_STATUS'; status: RequestStatus; verified: boolean }
  | { type: 'REOPEN' }
  /** Nobody pressed anything: what a waiting request waited for arrived (domain/wake-ups.ts), back to review. */
  | { type: 'WAKE'; reason: WakeReason };

/** Statuses an administrator may choose, by request type and subtype (spec 1 §4 "Admin status choices differ"). */
export function adminStatusChoices(ctx: LifecycleContext): RequestStatus[] {
  if (ctx.requestType === 'credentialing') {
    return [STATUS.pendingAdditionalInformation, STATUS.pendingEmployment, STATUS.pendingNewPolicyYear,
      STATUS.approved, STATUS.denied, STATUS.closed];
  }
  const choices: RequestStatus[] = [STATUS.pendingAdditionalInformation, STATUS.pendingOca, STATUS.pendingNewPolicyYear,
    STATUS.approved];
  if (ctx.certificateType === CONTRACTS_CERTIFICATE) choices.push(STATUS.approvedWithLetterOfIntent);
  choices.push(STATUS.denied, STATUS.closed);
  return choices;
}

/** "Admin saving completed or in-progress on credentialing or the contract subtype requires the verified checkbox". */
function requiresVerification(ctx: LifecycleContext, status: RequestStatus): boolean {
  return COMPLETED_STATUSES.includes(status)
    && (ctx.requestType === 'credentialing' || ctx.certificateType === CONTRACTS_CERTIFICATE);
}


type SetStatusEvent = Extract<LifecycleEvent, { type: 'SET_STATUS' }>;

const setStatusTransitions = (from: RequestStatus) =>
  ALL_STATUSES.filter((to) => to !== from && to !== STATUS.draft && to !== STATUS.submitted).map((to) => ({
    target: statusKeyOf(to),
    guard: { type: 'adminMayChoose' as const, params: { status: to } },
  }));

const stateFor = (status: RequestStatus) => {
  if (status === STATUS.draft) return { tags: ['draft', 'editable'], on: { SUBMIT: { target: 'submitted' } } };
  if (FINISHED_STATUSES.includes(status)) {
    return {
      tags: [COMPLETED_STATUSES.includes(status) ? 'completed' : 'closed', 'finished'],
      on: { REOPEN: { target: 'draft' } },
    };
  }
  const needsInfo = status === STATUS.pendingAdditionalInformation;
  const wakesFor = wakeReasonOf(status);
  return {
    tags: needsInfo ? ['open', 'editable'] : ['open'],
    on: {
      SET_STATUS: setStatusTransitions(status),
      ...(needsInfo ? { SUBMIT: { target: 'submitted' } } : {}),
      ...(wakesFor ? { WAKE: { target: 'submitted', guard: { type: 'wakesFor' as const, params: { reason: wakesFor } } } } : {}),
    },
  };
};

const requestLifecycleMachine = setup({
  types: {
    context: {} as LifecycleContext,
    events: {} as LifecycleEvent,
    input: {} as LifecycleContext,
  },
  guards: {
    adminMayChoose: ({ context, event }, params: { status: RequestStatus }) => {
      const e = event as SetStatusEvent;
      return e.status === params.status
        && adminStatusChoices(context).includes(params.status)
        && (e.verified || !requiresVerification(context, params.status));
    },
    wakesFor: ({ event }, params: { reason: WakeReason }) => event.type === 'WAKE' && event.reason === params.reason,
  },
}).createMachine({
  id: 'requestLifecycle',
  context: ({ input }) => ({ requestType: input.requestType, certificateType: input.certificateType ?? null }),
  initial: 'draft',
  states: Object.fromEntries(ALL_STATUSES.map((s) => [statusKeyOf(s), stateFor(s)])) as any,
});

type LifecycleSnapshot = SnapshotFrom<typeof requestLifecycleMachine>;

/** A snapshot of the machine standing at `status`. */
export function snapshotFor(status: RequestStatus, ctx: LifecycleContext): LifecycleSnapshot {
  return requestLifecycleMachine.resolveState({
    value: statusKeyOf(status),
    context: { requestType: ctx.requestType, certificateType: ctx.certificateType ?? null },
  });
}

const statusOf = (snapshot: LifecycleSnapshot): RequestStatus => STATUS[snapshot.value as unknown as StatusKey];

export const canApply = (status: RequestStatus, ctx: LifecycleContext, event: LifecycleEvent): boolean =>
  snapshotFor(status, ctx).can(event);

/** The status after `event`, or the reason it is refused (the spec's message where it names one). */
export function applyLifecycleEvent(
  status: RequestStatus, ctx: LifecycleContext, event: LifecycleEvent,
): { ok: true; status: RequestStatus } | { ok: false; message: string } {
  const snapshot = snapshotFor(status, ctx);
  if (snapshot.can(event)) {
    const [next] = transition(requestLifecycleMachine, snapshot, event);
    return { ok: true, status: statusOf(next) };
  }
  if (event.type === 'SET_STATUS') {
    if (snapshot.can({ ...event, verified: true })) return { ok: false, message: MESSAGES.verificationRequired };
    return { ok: false, message: `A request in status "${status}" cannot be changed to "${event.status}"` };
  }
  if (event.type === 'SUBMIT') return { ok: false, message: `A request in status "${status}" cannot be submitted` };
  if (event.type === 'WAKE') return { ok: false, message: `A request in status "${status}" is not waiting in "${WAITING_STATUS[event.reason]}"` };
  return { ok: false, message: `A request in status "${status}" cannot be reopened` };
}

/** Statuses offered in Manage Request right now (empty when the request is a draft or finished). */
export function statusChoicesNow(status: RequestStatus, ctx: LifecycleContext): RequestStatus[] {
  const snapshot = snapshotFor(status, ctx);
  return adminStatusChoices(ctx).filter((to) => snapshot.can({ type: 'SET_STATUS', status: to, verified: true }));
}


/** The requester's form is open while the machine tags the status `editable` (Draft, Pending Additional Information). */
export const requesterMayEdit = (status: RequestStatus, ctx: LifecycleContext): boolean => snapshotFor(status, ctx).hasTag('editable');
