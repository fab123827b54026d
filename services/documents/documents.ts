/**
 * Documents of a request (spec 2 §7.7): record, rename/redescribe/flag (administrators), remove. Each
 * change writes its audit row in the same transaction as the change. Routes only parse, call and answer.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DocumentSchema, RequestActivitySchema, type Document, type Request } from '../../db/entities';
import {
  cleanText, DOCUMENT_ACTIVITY, DOCUMENT_REMOVE_REFUSED, documentAuditText, documentsEditable, MESSAGES, mayRemoveDocument,
  type DocumentOrigin, type RequestStatus,
} from '../../domain';
import { conflict, forbidden, invalid, notFound } from '../refusals';
import type { CreateDocumentBody, DocumentRecord, PatchDocumentBody } from '../../contract/document.schema';
import type { SessionUser } from '../../contract/session-user.schema';
import { canEditForm, findVisibleRequest } from '../requests/request-access';
import { displayNameOf } from '../accounts/actors';

const documentOrigin = (d: Pick<Document, 'addedByAdmin' | 'idempotencyKey'>): DocumentOrigin =>
  d.idempotencyKey ? 'system' : d.addedByAdmin ? 'administrator' : 'requester';

/** A document as callers see it: where the bytes are stored and the letter's key are never sent. */
export const documentRecordOf = (d: Document): DocumentRecord => ({
  id: d.id, requestId: d.requestId, name: d.name, description: d.description ?? null, mimeType: d.mimeType, size: d.size,
  isAttachment: d.isAttachment, uploadedBy: d.uploadedBy ?? null, legacyId: d.legacyId ?? null, origin: documentOrigin(d),
  createdAt: d.createdAt, updatedAt: d.updatedAt,
});

export async function documentsOf(em: EntityManager, requestId: number): Promise<DocumentRecord[]> {
  return (await em.find(DocumentSchema, { requestId }, { orderBy: { createdAt: 'asc', id: 'asc' } })).map(documentRecordOf);
}

/** Documents may change while the caller may edit the request; never once it is approved or in a terminal status. */
function assertDocumentsEditable(user: SessionUser, request: Request): void {
  if (!documentsEditable(request.status as RequestStatus) || !canEditForm(user, request)) {
    throw forbidden('Documents of this request can no longer be changed');
  }
}

export async function editableRequest(em: EntityManager, user: SessionUser, requestId: number): Promise<Request> {
  const target = await findVisibleRequest(em, user, requestId);
  assertDocumentsEditable(user, target);
  return target;
}

/** Filename and description are required (spec 1 §5 "Documents"), on the server too. */
function requiredText(field: 'filename' | 'description', value: unknown): string {
  const text = cleanText(value);
  if (!text) throw invalid(MESSAGES.fieldValidation, { [field]: MESSAGES.required });
  return text;
}

function audit(em: EntityManager, requestId: number, user: SessionUser, text: string): void {
  em.create(RequestActivitySchema, {
    requestId, date: new Date(), activityType: DOCUMENT_ACTIVITY, activityText: text,
    performedBy: displayNameOf(user), performedByUserId: user.id, recipients: null, channel: 'Portal',
  });
}

/** `POST /documents` after the upload: the stored bytes are sniffed by the caller (`bytesOf`). */
export async function recordDocument(
  em: EntityManager, user: SessionUser, target: Request, body: CreateDocumentBody, bytesOf: () => Promise<{ mimeType: string; size: number }>,
): Promise<DocumentRecord> {
  if (body.isAttachment && !user.isAdmin) throw forbidden('Only administrators can attach documents to the approval email');
  const name = requiredText('filename', body.filename);
  const description = requiredText('description', body.description);
  if (await em.count(DocumentSchema, { requestId: target.id, name })) throw conflict(MESSAGES.documentExists);
  const { mimeType, size } = await bytesOf();
  const document = em.create(DocumentSchema, {
    requestId: target.id, name, description, storedName: body.storedName, mimeType, size, isAttachment: !!body.isAttachment,
    uploadedBy: displayNameOf(user), uploadedByUserId: user.id, addedByAdmin: user.isAdmin,
  });
  audit(em, target.id, user, documentAuditText.added(name, !!body.isAttachment));
  await em.flush();
  return documentRecordOf(document);
}

/** `PATCH /documents/:id` (administrators): rename, redescribe, set the attach-to-approval-email flag. */
export async function patchDocument(em: EntityManager, user: SessionUser, id: number, body: PatchDocumentBody): Promise<DocumentRecord> {
  if (!user.isAdmin) throw forbidden('Only administrators can change a document');
  const document = await em.findOne(DocumentSchema, id);
  if (!document) throw notFound('Document not found');
  const target = await editableRequest(em, user, document.requestId);
  const texts: string[] = [];
  if (body.filename !== undefined) {
    const name = requiredText('filename', body.filename);
    if (name !== document.name) {
      if (await em.count(DocumentSchema, { requestId: target.id, name })) throw conflict(MESSAGES.documentExists);
      texts.push(documentAuditText.renamed(document.name, name));
      document.name = name;
    }
  }
  if (body.description !== undefined) {
    const description = requiredText('description', body.description);
    if (description !== document.description) texts.push(documentAuditText.redescribed(document.name));
    document.description = description;
  }
  if (body.isAttachment !== undefined && body.isAttachment !== document.isAttachment) {
    document.isAttachment = body.isAttachment;
    texts.push(documentAuditText.flagged(document.name, body.isAttachment));
  }
  for (const text of texts) audit(em, target.id, user, text);
  await em.flush();
  return documentRecordOf(document);
}

/** `DELETE /documents/:id`: a requester removes only what a requester added; the bytes go once the row is gone. */
export async function removeDocument(em: EntityManager, user: SessionUser, id: number, removeBytes: (storedName: string) => Promise<void>): Promise<DocumentRecord> {
  const document = await em.findOne(DocumentSchema, id);
  if (!document) throw notFound('Document not found');
  const target = await editableRequest(em, user, document.requestId);
  if (!mayRemoveDocument(user.isAdmin, documentOrigin(document))) throw forbidden(DOCUMENT_REMOVE_REFUSED);
  const record = documentRecordOf(document);
  em.remove(document);
  audit(em, target.id, user, documentAuditText.removed(document.name));
  await em.flush();
  await removeBytes(document.storedName);
  return record;
}
