/**
 * An administrator's in-place edit of a submitted request (spec 1 §2 "Admin Edit"): allowed until the
 * request is completed or closed, and audited with one row naming the fields that changed, by their labels.
 */
import type { RequestFormValues } from './request-kinds';
import { fieldsOf, type RequestKindDefinition } from './request-kinds';
import { requesterMayEdit, type LifecycleContext } from './request-lifecycle.machine';
import { isFinished, STATUS, type RequestStatus } from './request-status';

/** Admin Edit is offered on submitted requests that are not finished (drafts are the requester's own). */
export const adminMayEditFields = (status: RequestStatus): boolean => status !== STATUS.draft && !isFinished(status);

/**
 * Whether a save of an administrator's is an audited Admin Edit (true) or the requester's own edit (false). An
 * administrator's own request is theirs as any requester's is: while its requester may edit it (Draft, Pending
 * Additional Information) they fill and submit (again) the requester's form; only someone else's submitted request,
 * or their own under review, is edited in place.
 */
export function editsAsAdministrator(
  user: { id: number; isAdmin: boolean },
  request: { requesterId?: number | null; status: RequestStatus } & LifecycleContext,
): boolean {
  if (!user.isAdmin || request.status === STATUS.draft) return false;
  const ownAndOpen = request.requesterId === user.id
    && requesterMayEdit(request.status, { requestType: request.requestType, certificateType: request.certificateType ?? null });
  return !ownAndOpen;
}

export const ADMIN_EDIT_REFUSED = 'This request is completed or closed: its fields can no longer be edited';

const comparable = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** The labels of the kind's fields whose value differs, in form order (each label once). */
export function changedFieldLabels(kind: RequestKindDefinition, before: RequestFormValues, after: RequestFormValues): string[] {
  const labels = fieldsOf(kind).filter((f) => comparable(before[f.name]) !== comparable(after[f.name])).map((f) => f.label);
  return [...new Set(labels)];
}

export const fieldEditAuditText = (labels: readonly string[]): string => `Edited ${labels.map((l) => `"${l}"`).join(', ')}`;
