/** How a request is named in tables and headings. */
import { editsAsAdministrator, STATUS, requestTypeLabelOf, requesterMayEdit } from '../../../domain';
import type { RequestRecord, User } from '../types/api';
import { paths } from './paths';

/** The dashboard's request type label: the domain's one definition (matches the Filter By Request Type options). */
export const requestTypeLabel = (request: Pick<RequestRecord, 'requestType' | 'certificateType' | 'autoType'>): string =>
  requestTypeLabelOf(request);

export const requestNumberLabel = (request: Pick<RequestRecord, 'requestNumber'>): string =>
  request.requestNumber == null ? '—' : String(request.requestNumber);

const routesOf = (request: Pick<RequestRecord, 'requestType'>) =>
  request.requestType === 'credentialing' ? paths.credentialing : paths.certificate;

export const requestViewHref = (request: Pick<RequestRecord, 'id' | 'requestType'>) => routesOf(request).view.getHref(request.id);
export const requestEditHref = (request: Pick<RequestRecord, 'id' | 'requestType'>) => routesOf(request).edit.getHref(request.id);

/** The form is open while the lifecycle machine tags the status `editable` (Draft, Pending Additional Information). */
export const isEditable = (request: Pick<RequestRecord, 'status' | 'requestType' | 'certificateType'>): boolean =>
  requesterMayEdit(request.status, { requestType: request.requestType, certificateType: request.certificateType });

/** Drafts have numbers from creation; one that was ever submitted (reopened) is not deletable. */
export const isDeletable = (request: Pick<RequestRecord, 'status' | 'submitDate'>): boolean =>
  request.status === STATUS.draft && !request.submitDate;

/** Filed by this user: an administrator's own requests are theirs to edit and delete as a requester's are. */
export const isOwnRequest = (request: Pick<RequestRecord, 'requesterId'>, user: Pick<User, 'id'>): boolean =>
  request.requesterId === user.id;

/**
 * An administrator edits a submitted request in place on its view page (spec 1 §2 Admin Edit: Save and Cancel),
 * never on the requester's autosaving form page; their own request sent back for more information they edit and
 * submit again on the form, as its requester (domain/request-edit.ts).
 */
export const adminEditsInPlace = (
  request: Pick<RequestRecord, 'status' | 'requesterId' | 'requestType' | 'certificateType'>, user: Pick<User, 'id' | 'isAdmin'>,
): boolean => editsAsAdministrator(user, request);
