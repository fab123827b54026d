/**
 * Messages of the request workflow, defined once and imported by the workflow and by its callers (the API).
 * Safe for the workflow bundle: only @temporalio/workflow and domain types.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { CertificateType, RequestStatus, RequestType } from '../domain';

export interface Actor { name: string; email: string }

export interface RequestWorkflowInput {
  requestId: number;
  requestNumber: number;
  requestType: RequestType;
  certificateType?: CertificateType | null;
  status: RequestStatus;
  /** Next side-effect sequence number; carried across continue-as-new so idempotency keys never repeat. */
  effectSeq?: number;
}

export interface RequestWorkflowState {
  requestId: number;
  requestNumber: number;
  requestType: RequestType;
  certificateType: CertificateType | null;
  status: RequestStatus;
  effectSeq: number;
  pendingEffects: number;
}

export interface SubmitCommand { actor: Actor }
export interface SetStatusCommand { status: RequestStatus; verified: boolean; internalNotes?: string | null; actor: Actor }
export interface ReopenCommand { actor: Actor }
export interface StatusResult { status: RequestStatus; requestNumber: number }

export const submitUpdate = defineUpdate<StatusResult, [SubmitCommand]>('submit');
export const setStatusUpdate = defineUpdate<StatusResult, [SetStatusCommand]>('setStatus');
export const reopenUpdate = defineUpdate<StatusResult, [ReopenCommand]>('reopen');
export const stateQuery = defineQuery<RequestWorkflowState>('state');

export const REQUEST_WORKFLOW_TYPE = 'requestWorkflow';
export const requestWorkflowId = (requestNumber: number) => `request-${requestNumber}`;

/**
 * Letters (Chromium) run on a task queue of their own, so a backlog of PDFs never delays the activities an
 * administrator's Save waits for (bench/README.md: approve p95 fell from 8 s once they were apart).
 */
export const letterTaskQueue = (taskQueue: string) => `${taskQueue}-letters`;
