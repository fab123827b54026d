/** Request payloads and records (spec 1 §3, spec 2 §7.3). Limits come from domain/. */
import { ClaimHistoryRecord } from './desk.schema';
import { Type, type Static } from 'typebox';
import {
  ADDL_RECIPIENTS_MAX, ALL_STATUSES, INTERNAL_NOTES_MAX, MIDDLE_INITIAL_MAX, REQUEST_TYPE, TEXT_MAX,
} from '../../domain';
import { DocumentRecord } from './document.schema';
import { DateTimeInput, Id, Nullable, NullableTimestamp, StringEnum, Timestamp } from './primitives';

const text = Type.Optional(Nullable(Type.String({ maxLength: TEXT_MAX })));
const date = Type.Optional(Nullable(DateTimeInput));

/** Fields a requester types on the credentialing form (spec 1 §3 "Clinician or person", "Claim-history request"). */
export const FORM_FIELDS = {
  employeeId: text, title: text, lastName: text, firstName: text,
  // one letter, optionally with its period ("A."): the period is dropped when saved
  middleInitial: Type.Optional(Nullable(Type.String({ maxLength: MIDDLE_INITIAL_MAX + 1 }))),
  altName: text, email: text, birthDate: date, dateFrom: date, dateTo: date,
  providerType: text, reason: text, reasonOther: text, licensingState: text, facilityName: text,
  recipientEmail: text, addlRecipients: Type.Optional(Nullable(Type.String({ maxLength: ADDL_RECIPIENTS_MAX }))),
  credentialingCompany: text,
};
export type FormFieldName = keyof typeof FORM_FIELDS;
export const FORM_FIELD_NAMES = Object.keys(FORM_FIELDS) as FormFieldName[];
export const DATE_FIELDS: readonly FormFieldName[] = ['birthDate', 'dateFrom', 'dateTo'];

export const CreateRequestBody = Type.Object({
  requestType: StringEnum(Object.values(REQUEST_TYPE)),
  certificateType: text,
  ...FORM_FIELDS,
}, { additionalProperties: false });
export type CreateRequestBody = Static<typeof CreateRequestBody>;

export const PatchRequestBody = Type.Object({
  ...FORM_FIELDS,
  status: Type.Optional(StringEnum(ALL_STATUSES)),
  verified: Type.Optional(Type.Boolean()),
  internalNotes: Type.Optional(Nullable(Type.String({ maxLength: INTERNAL_NOTES_MAX }))),
  version: Type.Optional(Type.Integer({
    minimum: 1,
    description: 'the request version the caller saw: a command pressed again on the same version is answered like '
      + 'the first; a status change made on an older version answers 409 Conflict',
  })),
}, { additionalProperties: false });
export type PatchRequestBody = Static<typeof PatchRequestBody>;

const nullableText = Type.Optional(Nullable(Type.String()));
const nullableDate = Type.Optional(NullableTimestamp);

/**
 * A request as callers see it. Not listed, so never sent: `lastCommandId` (the workflow's bookkeeping).
 * `internalNotes` is sent to administrators only.
 */
export const RequestRecord = Type.Object({
  id: Id,
  requestNumber: Type.Optional(Nullable(Type.Integer({ description: 'null until the first submit' }))),
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
  verified: Type.Optional(Type.Boolean()),
  credentialingCompany: nullableText,
  employeeId: nullableText,
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
  discussions: Type.Array(Type.Unknown(), { description: 'arrives with the discussions issue' }),
  claimHistory: Type.Array(ClaimHistoryRecord, { description: 'linked claims (administrators only; empty for requesters)' }),
});
