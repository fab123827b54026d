/**
 * Request statuses (spec 1 §4, spec 2 §9.3). The spec names a further closed/cancelled status without its
 * exact string; we call it `Closed`.
 */
export const STATUS = {
  draft: 'Draft',
  submitted: 'Submitted',
  pendingAdditionalInformation: 'Pending Additional Information',
  pendingEmployment: 'Pending Employment',
  pendingNewPolicyYear: 'Pending New Policy Year',
  pendingOca: 'Pending Off-Campus Authorization (OCA)/Contract',
  approved: 'Approved',
  approvedWithLetterOfIntent: 'Approved with Letter of Intent',
  denied: 'Denied',
  closed: 'Closed',
} as const;

export type StatusKey = keyof typeof STATUS;
export type RequestStatus = (typeof STATUS)[StatusKey];
export const ALL_STATUSES = Object.values(STATUS) as RequestStatus[];

export const statusKeyOf = (status: RequestStatus): StatusKey =>
  (Object.keys(STATUS) as StatusKey[]).find((key) => STATUS[key] === status)!;

/**
 * Spec 1 §4: "completed" statuses stamp a completion date and generate + email PDFs; Approved with Letter of
 * Intent is the "in-progress" one (certificate contracts). "closed" statuses stamp the date only.
 */
export const COMPLETED_STATUSES: readonly RequestStatus[] = [STATUS.approved, STATUS.approvedWithLetterOfIntent];
const CLOSED_STATUSES: readonly RequestStatus[] = [STATUS.denied, STATUS.closed];
export const FINISHED_STATUSES: readonly RequestStatus[] = [...COMPLETED_STATUSES, ...CLOSED_STATUSES];

/** Statuses after which no status-change notification is sent and which leave the admin work queue (spec 1 §4). */
export const DECIDED_STATUSES: readonly RequestStatus[] = [STATUS.approved, STATUS.approvedWithLetterOfIntent, STATUS.denied];

export const isCompleted = (s: RequestStatus) => COMPLETED_STATUSES.includes(s);
export const isFinished = (s: RequestStatus) => FINISHED_STATUSES.includes(s);
export const stampsCompletionDate = isFinished;
export const generatesLetter = isCompleted;

/** Requester dashboard groups (spec 1 §2, spec 2 §9.3). */
export const REQUESTER_GROUPS = ['Additional Information Requested', 'In Progress', 'Completed'] as const;
export type RequesterGroup = (typeof REQUESTER_GROUPS)[number];

export function requesterGroupOf(status: RequestStatus): RequesterGroup {
  if (status === STATUS.pendingAdditionalInformation) return 'Additional Information Requested';
  if (isFinished(status)) return 'Completed';
  return 'In Progress';
}

/** Admin dashboard: "Rows are grouped under status headings, with Pending Review as the general group." */
const ADMIN_GENERAL_GROUP = 'Pending Review';
export function adminGroupOf(status: RequestStatus): string {
  return status === STATUS.submitted ? ADMIN_GENERAL_GROUP : status;
}

/** Approval Date column: the date when approved, a dash for another terminal status, PENDING otherwise. */
export function approvalDateLabel(status: RequestStatus, completedDate: string | null | undefined, format: (iso: string) => string): string {
  if (isCompleted(status) && completedDate) return format(completedDate);
  if (isFinished(status)) return '—';
  return 'PENDING';
}
