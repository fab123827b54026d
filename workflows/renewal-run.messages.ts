/**
 * A renewal run (domain/renewals.ts) as durable work: the API records the run and its certificates, then starts this
 * workflow; it asks the requesters first when the office chose so, then asks each request's workflow to renew,
 * at a bounded pace, until none is left. Names and types only: shared by the API, the worker and the workflow.
 */
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { RenewalRunState } from '../domain/renewals';

export const RENEWAL_RUN_WORKFLOW = 'renewalRunWorkflow';

export interface RenewalRunInput {
  runId: number;
  /** carried across continue-as-new: where the run is, and whether it is paused */
  phase?: 'start' | 'ask' | 'wait' | 'renew';
  paused?: boolean;
}

export type RenewalControlAction = 'pause' | 'resume' | 'cancel' | 'close-asking';
/** The office's pause, resume, cancel and "stop waiting for answers": answered once the run's state is written. */
export const renewalControlUpdate = defineUpdate<{ state: RenewalRunState }, [{ action: RenewalControlAction; by: string }]>('control');
/** A requester answered (the API, after recording it): the run looks whether any answer is still awaited. */
export const renewalAnsweredSignal = defineSignal('answered');
