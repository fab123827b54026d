/**
 * Who may see and change a request (spec 1 §6, spec 2 §6): requesters only their own (requester id, or their email
 * as the person/clinician email); administrators all.
 */
import { wrap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RequestSchema, type Request } from '../../db/entities';
import { isFinished, requesterMayEdit, type CertificateType, type RequestStatus, type RequestType } from '../../domain';
import { forbidden, notFound } from '../refusals';
import type { RequestRecord } from '../../contract/request.schema';
import type { SessionUser } from '../../contract/session-user.schema';

/**
 * Whose requests a requester sees: those they filed, and those naming their email (null: an administrator sees all).
 * The email half only for a proven address: `email` is null while the user's address is unconfirmed, so
 * typing someone's address into a profile never shows their requests.
 */
export interface RequestOwner { requesterId: number; email: string | null }
export function visibleOwner(user: SessionUser): RequestOwner | null {
  return user.isAdmin ? null : { requesterId: user.id, email: provenEmail(user) };
}

/** The address that grants access: the user's email once confirmed, else none. */
const provenEmail = (user: SessionUser): string | null => (user.emailConfirmed ? user.email.toLowerCase() : null);

export function canSee(user: SessionUser, request: Pick<Request, 'requesterId' | 'email'>): boolean {
  const email = provenEmail(user);
  return user.isAdmin || request.requesterId === user.id || (!!email && !!request.email && request.email.toLowerCase() === email);
}

function assertCanSee(user: SessionUser, request: Request): void {
  if (!canSee(user, request)) throw forbidden('You do not have access to this request');
}

/** The request `id` if the caller may see it: 404 when there is none, 403 when it is someone else's. */
export async function findVisibleRequest(em: EntityManager, user: SessionUser, id: number): Promise<Request> {
  const request = await em.findOne(RequestSchema, id);
  if (!request) throw notFound(`No record found for id '${id}'`);
  assertCanSee(user, request);
  return request;
}

/** Requesters edit their drafts and requests waiting for more information; admins edit until a request is finished. */
export function canEditForm(user: SessionUser, request: Request): boolean {
  const status = request.status as RequestStatus;
  if (user.isAdmin) return !isFinished(status);
  return request.requesterId === user.id
    && requesterMayEdit(status, { requestType: request.requestType as RequestType, certificateType: request.certificateType as CertificateType | null });
}

/**
 * A request as the caller may see it: internal notes, the stale-letter flag and the directory's facts are for administrators only. Columns the response schema
 * does not list (`lastCommandId`) are dropped by the serializer.
 */
export function requestForCaller(user: SessionUser, request: Request): RequestRecord {
  return recordForCaller(user, wrap(request).toObject() as unknown as RequestRecord);
}

/** The same rule for a record read without an entity (the lists, services/lists/request-list.ts). */
export function recordForCaller(user: SessionUser, record: RequestRecord): RequestRecord {
  if (!user.isAdmin) {
    delete record.internalNotes;
    delete record.letterStaleSince;
    // The directory's dates are for administrators (domain/people-directory.ts), so is what a request copied of them.
    delete record.hireDate;
    delete record.employmentStatus;
    delete record.terminationDate;
  }
  return record;
}
