/**
 * Request payloads and records (spec 1 §3, spec 2 §7.3). Limits come from domain/; the form fields, their names and
 * kinds, from the kind definitions (domain/request-kinds.ts), so the bodies' and the record's types list them exactly.
 */
import { ClaimHistoryRecord } from './desk.schema';
import { DiscussionRecord } from './discussion.schema';
import { Type, type Static, type TObject } from 'typebox';
import {
  ADDL_RECIPIENTS_MAX, ALL_FORM_FIELDS, ALL_STATUSES, INTERNAL_NOTES_MAX, LONG_TEXT_MAX, TEXT_MAX, REQUEST_TYPE,
  type FormField,
} from '../domain';
import { DocumentRecord } from './document.schema';
import { DateTimeInput, Id, Nullable, NullableTimestamp, StringEnum, Timestamp } from './primitives';

const text = Type.Optional(Nullable(Type.String({ maxLength: TEXT_MAX })));
const date = Type.Optional(Nullable(DateTimeInput));
const checkbox = Type.Optional(Nullable(Type.Boolean()));
const textOf = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String(description ? { maxLength, description } : { maxLength })));

/** A form field's payload type, from its declaration in domain/request-kinds.ts. */
function payloadTypeOf(field: FormField): typeof text | typeof checkbox {
  if (field.kind === 'date') return date;
  if (field.kind === 'checkbox') return checkbox;
  if (field.kind === 'time') return textOf(5, 'HH:mm, on the half hour');
  if (field.kind === 'emailList') return textOf(ADDL_RECIPIENTS_MAX);
  if (field.kind === 'textarea') return textOf(LONG_TEXT_MAX);
  // one character as stored: the form sends it cleaned of its period (formToPayload, cleanMiddleInitial), so a
  // payload of "A." is refused by this limit rather than cut
  if (field.name === 'middleInitial') return textOf(field.maxLength ?? 1);
  return textOf(Math.max(field.maxLength ?? TEXT_MAX, TEXT_MAX));
}

/** Each declared field's payload schema, by name: a checkbox is a boolean, every other kind a string (a date's ISO). */
type FormFieldSchemas = { [F in FormField as F['name']]: F['kind'] extends 'checkbox' ? typeof checkbox : typeof text };

/**
 * Fields a requester types, of every request kind (spec 1 §3): declared once in domain/request-kinds.ts. Which
 * of them a kind uses and requires is checked at submit (domain/request-rules.ts).
 */
const FORM_FIELDS = {
  // the field list is data: its entries are the mapped type's properties, one per declared name
  ...(Object.fromEntries(ALL_FORM_FIELDS.map((f) => [f.name, payloadTypeOf(f)])) as FormFieldSchemas),
  credentialingCompany: text,
};
export const FORM_FIELD_NAMES = Object.keys(FORM_FIELDS) as (keyof typeof FORM_FIELDS)[];
export const DATE_FIELDS: readonly string[] = ALL_FORM_FIELDS.filter((f) => f.kind === 'date').map((f) => f.name);
export const BOOLEAN_FIELDS: readonly string[] = ALL_FORM_FIELDS.filter((f) => f.kind === 'checkbox').map((f) => f.name);

/** The form fields of a create or a save, each optional (null clears a field). */
export type RequestFormPayload = Static<TObject<typeof FORM_FIELDS>>;

export const CreateRequestBody = Type.Object({
  requestType: StringEnum(Object.values(REQUEST_TYPE)),
  certificateType: text,
  cloneOf: Type.Optional(Type.Integer({ minimum: 1, description: 'an Approved (or Approved with Letter of Intent) request whose form values the new draft copies (no documents, status or dates)' })),
  ...FORM_FIELDS,
}, { additionalProperties: false });
export type CreateRequestBody = Static<typeof CreateRequestBody>;

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
export type PatchRequestBody = Static<typeof PatchRequestBody>;

const nullableText = Type.Optional(Nullable(Type.String()));
const nullableDate = Type.Optional(NullableTimestamp);
const nullableBoolean = Type.Optional(Nullable(Type.Boolean()));
/** Form fields the record lists by hand (in the order callers know), the other kinds' fields follow from their declarations. */
const BASE_RECORD_FIELDS = ['addlRecipients', 'recipientEmail', 'employeeId', 'title', 'lastName', 'firstName', 'middleInitial',
  'altName', 'email', 'birthDate', 'providerType', 'reason', 'reasonOther', 'licensingState', 'facilityName', 'dateFrom', 'dateTo'] as const;
const isBaseRecordField = (name: string) => (BASE_RECORD_FIELDS as readonly string[]).includes(name);
type RecordFieldSchemas = {
  [F in FormField as Exclude<F['name'], (typeof BASE_RECORD_FIELDS)[number]>]:
  F['kind'] extends 'date' ? typeof nullableDate : F['kind'] extends 'checkbox' ? typeof nullableBoolean : typeof nullableText
};

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
  ...(Object.fromEntries(ALL_FORM_FIELDS.filter((f) => !isBaseRecordField(f.name)).map((f) => [
    f.name, f.kind === 'date' ? nullableDate : f.kind === 'checkbox' ? nullableBoolean : nullableText,
  ])) as RecordFieldSchemas),
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
