/** Activity signatures as the workflow sees them (type-only import into the workflow bundle). */
import type { RequestStatus } from '../domain';

export interface RecordStatusChangeInput {
  /** `<workflowId>:<effect seq>`: the audit row carries it, so a retry writes nothing twice. */
  key: string;
  requestId: number;
  previousStatus: RequestStatus;
  status: RequestStatus;
  at: string;
  submitted: boolean;
  /** ISO when the status stamps a completion time; null clears it (Reopen, open statuses). */
  completedDate: string | null;
  verified?: boolean;
  internalNotes?: string | null;
  actor: { name: string; email: string };
}

export interface GenerateLetterInput { key: string; requestId: number }
export interface GenerateLetterResult { documentId: number; name: string }

export interface SendTemplatedEmailInput {
  key: string;
  requestId: number;
  templateTitle: string;
  attachmentDocumentIds: number[];
}
export interface SendTemplatedEmailResult { messageId: string; recipients: string[]; alreadySent: boolean }

export interface RequestActivities {
  recordStatusChange(input: RecordStatusChangeInput): Promise<void>;
  generateLetter(input: GenerateLetterInput): Promise<GenerateLetterResult>;
  sendTemplatedEmail(input: SendTemplatedEmailInput): Promise<SendTemplatedEmailResult>;
}
