/**
 * An administrator's in-place edit of a submitted request (spec 1 §2 "Admin Edit"): refused once the
 * request is completed or closed, validated with the same domain rules as the requester's submit, and audited
 * with ONE row naming the changed fields by label, flushed in the same transaction as the edit.
 */
import { DocumentSchema, RequestActivitySchema, type Request } from '../../db/entities';
import {
  ADMIN_EDIT_REFUSED, adminMayEditFields, changedFieldLabels, editsAsAdministrator, FIELD_EDIT_ACTIVITY, fieldEditAuditText, hasErrors, officeToday,
  requestKindOf, type CertificateType, type RequestStatus, type RequestType,
} from '../../domain';
import { validateRequestForm } from '../../domain/request-rules';
import { forbidden, invalid } from '../refusals';
import type { RequestFormPayload } from '../../contract/request.schema';
import type { SessionUser } from '../../contract/session-user.schema';
import type { CommandContext } from '../context';
import { applyFormFields, formOf } from './request-form';
import { copyDirectoryFacts } from './directory-facts';
import { displayNameOf } from '../accounts/actors';

/**
 * Is this save an administrator editing a submitted request (rather than a draft's autosave, or their own request
 * sent back for more information, which they edit as its requester)?
 */
export const isAdminEdit = (user: SessionUser, row: Request): boolean => editsAsAdministrator(user, {
  requesterId: row.requesterId, status: row.status as RequestStatus,
  requestType: row.requestType as RequestType, certificateType: row.certificateType as CertificateType | null,
});

export async function saveAdminEdit(ctx: CommandContext, row: Request, form: RequestFormPayload): Promise<void> {
  if (!adminMayEditFields(row.status as RequestStatus)) throw forbidden(ADMIN_EDIT_REFUSED);
  const kind = requestKindOf(row.requestType, row.certificateType);
  const before = formOf(row);
  applyFormFields(row, form);
  if ('employeeId' in form) await copyDirectoryFacts(ctx.em, row);
  const after = formOf(row);
  const errors = validateRequestForm(kind, after, {
    isExternal: row.employerType === 'external', today: officeToday(ctx.clockPolicy.calendar.timeZone),
    documentCount: await ctx.em.count(DocumentSchema, { requestId: row.id }),
  });
  // Nothing is flushed on a refusal: this call's entity manager is dropped with it.
  if (hasErrors(errors)) throw invalid('Field validation error.', errors as Record<string, string>);
  const labels = changedFieldLabels(kind, before, after);
  if (labels.length) auditFieldEdit(ctx, row.id, labels);
  await ctx.em.flush(); // the edit and its audit row: one flush, one transaction
}

export function auditFieldEdit(ctx: CommandContext, requestId: number, labels: readonly string[]): void {
  ctx.em.create(RequestActivitySchema, {
    requestId, date: new Date(), activityType: FIELD_EDIT_ACTIVITY, activityText: fieldEditAuditText(labels),
    performedBy: displayNameOf(ctx.user), performedByUserId: ctx.user.id, recipients: null, channel: 'Portal',
  });
}
