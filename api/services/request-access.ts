/**
 * Who may see and change a request (spec 1 §6, spec 2 §6): requesters only their own (requester id, or their email
 * as the person/clinician email); administrators all.
 */
import { wrap } from '@mikro-orm/core';
import type { Request } from '../../db/entities';
import { isFinished, requesterMayEdit, type CertificateType, type RequestStatus, type RequestType } from '../../domain';
import { forbidden } from '../errors';
import type { SessionUser } from '../plugins/app-context';

export function visibleRequestsFilter(user: SessionUser): Record<string, unknown> {
  if (user.isAdmin) return {};
  return { $or: [{ requesterId: user.id }, { email: user.email.toLowerCase() }] };
}

export function canSee(user: SessionUser, request: Request): boolean {
  return user.isAdmin || request.requesterId === user.id || (!!request.email && request.email.toLowerCase() === user.email.toLowerCase());
}

export function assertCanSee(user: SessionUser, request: Request): void {
  if (!canSee(user, request)) throw forbidden('You do not have access to this request');
}

/** Requesters edit their drafts and requests waiting for more information; admins edit until a request is finished. */
export function canEditForm(user: SessionUser, request: Request): boolean {
  const status = request.status as RequestStatus;
  if (user.isAdmin) return !isFinished(status);
  return request.requesterId === user.id
    && requesterMayEdit(status, { requestType: request.requestType as RequestType, certificateType: request.certificateType as CertificateType | null });
}

/** Serializes a request for the caller: internal notes are for administrators only. */
export function requestForCaller(user: SessionUser, request: Request): Record<string, unknown> {
  const { version: _version, ...plain } = wrap(request).toObject() as Record<string, unknown>;
  if (!user.isAdmin) delete plain.internalNotes;
  return plain;
}
