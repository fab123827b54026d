/** Upload and document payloads and records (spec 2 §7.7). Limits come from domain/. */
import { Type, type Static, type TSchema } from 'typebox';
import { TEXT_MAX } from '../domain';
import { Id, Nullable, StringEnum, Timestamp } from './primitives';

/**
 * The upload handle: the generated name the bytes were stored under (`r<requestId>-<uuid>.<ext>`). `POST /upload`
 * answers it and `POST /documents` takes it back; document records never carry it.
 */
const StoredName = Type.String({ pattern: '^r[0-9]+-[a-f0-9-]{36}\\.[a-z0-9]{1,8}$' });

/** `POST /upload` (multipart: `requestId`, `file`). */
export const UploadResult = Type.Object({
  storedName: StoredName,
  filename: Type.String({ description: "the client's file name, as sent" }),
  size: Type.Integer({ minimum: 1 }),
  mimeType: Type.String({ description: 'what the bytes are (sniffed), not what the client claimed' }),
});

export const CreateDocumentBody = Type.Object({
  requestId: Id,
  filename: Type.String({ minLength: 1, maxLength: TEXT_MAX }),
  description: Type.Optional(Nullable(Type.String({ maxLength: TEXT_MAX, description: 'required (spec 1 §5)' }))),
  storedName: StoredName,
  isAttachment: Type.Optional(Type.Boolean({ description: 'administrators only: attach to the approval email' })),
}, { additionalProperties: false });
export type CreateDocumentBody = Static<typeof CreateDocumentBody>;

/** `PATCH /documents/:id` (administrators): rename, redescribe, set the attach-to-approval-email flag. */
export const PatchDocumentBody = Type.Object({
  filename: Type.Optional(Type.String({ minLength: 1, maxLength: TEXT_MAX })),
  description: Type.Optional(Nullable(Type.String({ maxLength: TEXT_MAX }))),
  isAttachment: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });
export type PatchDocumentBody = Static<typeof PatchDocumentBody>;

/** A document record. Not listed, so never sent: where the bytes are stored, and the letter's idempotency key. */
export const DocumentRecord = Type.Object({
  id: Id,
  requestId: Id,
  name: Type.String(),
  description: Type.Optional(Nullable(Type.String())),
  mimeType: Type.String(),
  size: Type.Integer({ minimum: 0 }),
  isAttachment: Type.Optional(Type.Boolean()),
  uploadedBy: Type.Optional(Nullable(Type.String())),
  legacyId: Type.Optional(Nullable(Type.String({ description: 'set on documents of the old system (unavailable)' }))),
  origin: Type.Optional(StringEnum(['requester', 'administrator', 'system'], {
    description: 'who added it: a requester removes only what a requester added; `system` is a generated letter',
  })),
  createdAt: Timestamp,
  updatedAt: Type.Optional(Timestamp),
});
export type DocumentRecord = Static<typeof DocumentRecord>;

export const DocumentFileParams = Type.Object({ requestId: Id, name: Type.String({ minLength: 1 }) });

/** The bytes of a download, in the content type they were stored with. */
export const DocumentFileResponse = {
  description: 'the file',
  content: { 'application/octet-stream': { schema: Type.Unsafe<unknown>({ type: 'string', format: 'binary' } as TSchema) } },
};
