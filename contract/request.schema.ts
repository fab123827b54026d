import { DiscussionRecord } from './discussion.schema';
/** Request payloads and records (spec 1 §3, spec 2 §7.3). Limits come from domain/. */
import { ClaimHistoryRecord } from './desk.schema';
import { Type, type Static, type TSchema } from 'typebox';
import {
  ADDL_RECIPIENTS_MAX, ALL_FORM_FIELDS, ALL_STATUSES, INTERNAL_NOTES_MAX, LONG_TEXT_MAX, TEXT_MAX, REQUEST_TYPE,
  type FieldDefinition,
} from '../domain';
import { DocumentRecord } from './document.schema';
import { DateTimeInput, Id, Nullable, NullableTimestamp, StringEnum, Timestamp } from './primitives';

const text = Type.Optional(Nullable(Type.String({ maxLength: TEXT_MAX })));
const date = Type.Optional(Nullable(DateTimeInput));

/** A form field's payload type, from its declaration in domain/request-kinds.ts. */
function payloadTypeOf(field: FieldDefinition): TSchema {
  if (field.kind === 'date') return date;
  if (field.kind === 'checkbox') return Type.Optional(Nullable(Type.Boolean()));
  if (field.kind === 'time') return Type.Optional(Nullable(Type.String({ maxLength: 5, description: 'HH:mm, on the half hour' })));
  if (field.kind === 'emailList') return Type.Optional(Nullable(Type.String({ maxLength: ADDL_RECIPIENTS_MAX })));
  if (field.kind === 'textarea') return Type.Optional(Nullable(Type.String({ maxLength: LONG_TEXT_MAX })));
  // the middle initial may carry its period ("A."): the period is dropped when saved
  if (field.name === 'middleInitial') return Type.Optional(Nullable(Type.String({ maxLength: (field.maxLength ?? 1) })));
  return Type.Optional(Nullable(Type.String({ maxLength: Math.max(field.maxLength ?? TEXT_MAX, TEXT_MAX) })));
}

/**
 * Fields a requester types, of every request kind (spec 1 §3): declared once in domain/request-kinds.ts. Which
 * of them a kind uses and requires is checked at submit (domain/request-rules.ts).
 */
const FORM_FIELDS = {
  ...Object.fromEntries(ALL_FORM_FIELDS.map((f) => [f.name, payloadTypeOf(f)])),
  credentialingCompany: text,
} as Record<string, TSchema>;
export const FORM_FIELD_NAMES = Object.keys(FORM_FIELDS);
export const DATE_FIELDS: readonly string[] = ALL_FORM_FIELDS.filter((f) => f.kind === 'date').map((f) => f.name);
export const BOOLEAN_FIELDS: readonly string[] = ALL_FORM_FIELDS.filter((f) => f.kind === 'checkbox').map((f) => f.name);

export const CreateRequestBody = Type.Object({
  requestType: StringEnum(Object.values(REQUEST_TYPE)),
  certificateType: text,
  cloneOf: Type.Optional(Type.Integer({ minimum: 1, description: 'an Approved (or Approved with Letter of Intent) request whose form values the new draft copies (no documents, status or dates)' })),
  ...FORM_FIELDS,
}, { additionalProperties: false });
export type CreateRequestBody = { requestType: 'credentialing' | 'certificate'; certificateType?: string | null; cloneOf?: number } & Record<string, unknown>;

export const PatchRequestBody = Type.Object({
  ...FORM_FIELDS,
  status: Type.Optional(StringEnum(ALL_STATUSES)),
  verified: Type.Optional(Type.Boolean()),
  signedReleaseDate: Type.Optional(Type.String({
    maxLength: 10, description: 'administrators, claim history requests: the signed release\'s date (yyyy-mm-dd, within the last 180 days); '
      + 'the request goes back to the requester when it expires',
  })),
  internalNotes: Type.Optional(Nullable(Type.String({ maxLength: INTERNAL_NOTES_MAX }))),
  version: Type.Optional(Type.Integer({
    minimum: 1,
    description: 'the request version the caller saw: a command pressed again on the same version is answered like '
      + 'the first; a status change made on an older version answers 409 Conflict',
  })),
}, { additionalProperties: false });
export type PatchRequestBody = {
  status?: (typeof ALL_STATUSES)[number]; verified?: boolean; internalNotes?: string | null; version?: number; signedReleaseDate?: string;
} & Record<string, unknown>;

const nullableText = Type.Optional(Nullable(Type.String()));
const BASE_RECORD_FIELDS = new Set(['addlRecipients', 'recipientEmail', 'employeeId', 'title', 'lastName', 'firstName', 'middleInitial',
  'altName', 'email', 'birthDate', 'providerType', 'reason', 'reasonOther', 'licensingState', 'facilityName', 'dateFrom', 'dateTo']);
const nullableDate = Type.Optional(NullableTimestamp);

/**
 * A request as callers see it. Not listed, so never sent: `lastCommandId` (the workflow's bookkeeping).
 * `internalNotes` is sent to administrators only.
 */
export const RequestRecord = Type.Object({
  id: Id,
  requestNumber: Type.Optional(Nullable(Type.Integer({ description: 'assigned when the draft is created' }))),
  requestType: Type.String(),
  certificateType: nullableText,
  status: Type.String(),
  source: Type.Optional(Type.String()),
  submitDate: nullableDate,
  completedDate: nullableDate,
  requesterId: Type.Optional(Type.Integer()),
  requesterName: nullableText,
  requesterLastName: nullableText,
  requesterEmail: nullableText,
  requesterPhone: nullableText,
  requesterCompany: nullableText,
  employerType: Type.Optional(Type.String()),
  addlRecipients: nullableText,
  recipientEmail: nullableText,
  internalNotes: Type.Optional(Nullable(Type.String({ description: 'administrators only' }))),
  /** administrators only: when a CS-STARS upload made the issued claim-history letter possibly out of date */
  letterStaleSince: nullableDate,
  verified: Type.Optional(Type.Boolean()),
  signedReleaseDate: Type.Optional(Nullable(Type.String({ description: 'yyyy-mm-dd: the signed release the administrator verified' }))),
  signedReleaseRecordedAt: nullableDate,
  credentialingCompany: nullableText,
  employeeId: nullableText,
  /** administrators only: the directory's facts for the employee id, when the request was saved */
  hireDate: nullableDate,
  employmentStatus: Type.Optional(Nullable(Type.String({ description: 'administrators only: A active, T terminated' }))),
  terminationDate: nullableDate,
  title: nullableText,
  lastName: nullableText,
  firstName: nullableText,
  middleInitial: nullableText,
  altName: nullableText,
  email: nullableText,
  birthDate: nullableDate,
  providerType: nullableText,
  reason: nullableText,
  reasonOther: nullableText,
  licensingState: nullableText,
  facilityName: nullableText,
  dateFrom: nullableDate,
  dateTo: nullableDate,
  ...Object.fromEntries(ALL_FORM_FIELDS.filter((f) => !BASE_RECORD_FIELDS.has(f.name)).map((f) => [
    f.name, f.kind === 'date' ? nullableDate : f.kind === 'checkbox' ? Type.Optional(Nullable(Type.Boolean())) : nullableText,
  ])) as Record<string, TSchema>,
  personRole: nullableText,
  clonedFromId: Type.Optional(Nullable(Type.Integer())),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Type.Integer({ description: 'optimistic-lock version: send it back as `version` with a PATCH' }),
});
export type RequestRecord = Static<typeof RequestRecord>;

/** A list item: `$select` trims records to the chosen fields (and id). */
export const RequestListItem = Type.Object({ ...Type.Partial(RequestRecord).properties, id: Id });

/** `GET /requests/:id`: the request with its related lists. */
export const RequestDetail = Type.Object({
  ...RequestRecord.properties,
  documents: Type.Array(DocumentRecord),
  discussions: Type.Array(DiscussionRecord, { description: 'messages, oldest first (deleted ones are not listed)' }),
  claimHistory: Type.Array(ClaimHistoryRecord, { description: 'linked claims (administrators only; empty for requesters)' }),
});
