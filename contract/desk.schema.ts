/**
 * Route schemas of the administrators' desk (spec 2 §7.5, §7.6, §7.9, §7.11): search-requests, faqs, policies,
 * email-templates, cs-stars, claim-history and export-requests. Responses list only what callers see.
 */
import { Type } from 'typebox';
import { FAQ_TYPES, REQUEST_TYPE_FILTERS } from '../domain';
import { Id, Nullable, NullableTimestamp, StringEnum, Timestamp } from './primitives';

const Text = (description?: string) => Type.Optional(Type.String({ maxLength: 2600, ...(description ? { description } : {}) }));

// ---- search-requests
export const SearchQuery = Type.Object({
  searchFrom: Text('first submission day (ISO)'), searchTo: Text('last submission day, inclusive (ISO)'),
  clinLastName: Text('clinician last name contains'), reqstrLastName: Text('requester last name contains'),
  reqstrCompany: Text('requester company contains'), reqstrEmail: Text('requester email contains'),
  fleetVIN: Text('VIN contains (dashes and spaces ignored)'), plateNumber: Text('plate contains (dashes and spaces ignored)'),
  driverName: Text('driver name contains'),
  limit: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: 'result count, default 15, at least 1' })),
});
export const SearchRow = Type.Object({
  id: Id, requestNumber: Nullable(Type.Integer()), requesterName: Nullable(Type.String()), requestType: Type.String(),
  typeLabel: Type.String(), submitDate: NullableTimestamp, completedDate: NullableTimestamp, employerType: Type.String(), status: Type.String(),
});
export const SearchResult = Type.Object({ limit: Type.Integer(), data: Type.Array(SearchRow) });

// ---- faqs
export const FaqRecord = Type.Object({
  id: Id, type: Type.String({ enum: [...FAQ_TYPES] }), question: Type.String(), answer: Type.String(), order: Type.Integer(),
  createdAt: Timestamp, updatedAt: Timestamp,
});
export const FaqQuery = Type.Object({
  type: Type.Optional(StringEnum(FAQ_TYPES, { description: 'Admin (administrators only) or Requester' })),
  $sort: Type.Optional(Type.Unknown({ description: 'always by order ascending' })),
  $limit: Type.Optional(Type.Unknown()),
});
const OrderValue = Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()]));
export const CreateFaqBody = Type.Object({
  type: Type.String(), question: Type.String({ maxLength: 2000 }), answer: Type.String({ maxLength: 10000 }), order: OrderValue,
}, { additionalProperties: false });
export const UpdateFaqBody = Type.Object({
  question: Type.String({ maxLength: 2000 }), answer: Type.String({ maxLength: 10000 }), order: OrderValue,
  type: Type.Optional(Type.String({ description: 'ignored: the type is chosen only when adding' })),
}, { additionalProperties: false });

// ---- policies
export const PolicyRecord = Type.Object({
  id: Id, startDate: Timestamp, endDate: Timestamp, policyNumber: Type.String(), limitClaim: Type.String(),
  annualAggregate: Type.String(), createdAt: Timestamp, updatedAt: Timestamp,
});
const policyFields = {
  startDate: Type.String({ maxLength: 40, description: 'mm/dd/yyyy or ISO; stored as that day at 11:00 UTC' }),
  endDate: Type.String({ maxLength: 40 }),
  policyNumber: Type.String({ maxLength: 400 }),
  limitClaim: Type.String({ maxLength: 40, description: 'US dollars, e.g. 2,565,400.00' }),
  annualAggregate: Type.String({ maxLength: 40 }),
};
export const CreatePolicyBody = Type.Object(policyFields, { additionalProperties: false });
export const PatchPolicyBody = Type.Partial(Type.Object(policyFields), { additionalProperties: false });

// ---- email-templates
export const EmailTemplateRecord = Type.Object({
  id: Id, title: Type.String(), subject: Type.String(), body: Type.String(), order: Type.Integer(), updatedAt: Timestamp,
});
export const PatchTemplateBody = Type.Object({
  subject: Type.Optional(Type.String({ maxLength: 2000 })), body: Type.Optional(Type.String({ maxLength: 20000 })),
}, { additionalProperties: false });
export const PreviewTemplateBody = Type.Object({
  subject: Type.String({ maxLength: 2000 }), body: Type.String({ maxLength: 20000 }), requestId: Type.Optional(Id),
}, { additionalProperties: false });
export const PreviewResult = Type.Object({
  subject: Type.String(), body: Type.String(), requestNumber: Nullable(Type.Integer()), sample: Type.Boolean(),
});

// ---- cs-stars and claim-history
export const ClaimDataRecord = Type.Object({
  id: Id, exportDate: Timestamp, physicianLastName: Type.String(), physicianFirstName: Type.String(),
  physicianMiddleInitial: Type.String(), involvement: Type.String(), claimNumber: Type.String(), type: Type.String(),
  status: Type.String(), outcome: Type.String(), claimDate: Timestamp, reportDate: Timestamp,
  indemnityPaid: Type.String(), description: Type.String(),
});
export const ClaimsPage = Type.Object({
  total: Type.Integer(), limit: Type.Integer(), skip: Type.Integer(), data: Type.Array(ClaimDataRecord),
});
export const CsStarsUploadResult = Type.Object({
  rows: Type.Integer(), inserted: Type.Integer(), updated: Type.Integer(), unchanged: Type.Integer(),
  staleLetters: Type.Integer({ description: 'issued claim-history letters this upload flagged "Letter may be out of date"' }),
  total: Type.Integer(), limit: Type.Integer(), skip: Type.Integer(), data: Type.Array(ClaimDataRecord),
});
const Opt = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) => Type.Optional(schema);
export const ClaimHistoryRecord = Type.Object({
  id: Id, requestId: Id, claimId: Opt(Nullable(Type.Integer())), physician: Type.String(),
  physicianLastName: Opt(Nullable(Type.String())), physicianFirstName: Opt(Nullable(Type.String())), physicianMiddleInitial: Opt(Nullable(Type.String())),
  involvement: Opt(Nullable(Type.String())), claimNumber: Opt(Nullable(Type.String())), reportDate: Opt(NullableTimestamp), indemnityPaid: Opt(Nullable(Type.String())),
});
export const ClaimSearchQuery = Type.Object({
  lastName: Text('physician last name (case-insensitive)'), firstName: Text('physician first name (case-insensitive)'),
  combination: Type.Optional(StringEnum(['or', 'and'] as const, { description: 'how the names combine (default or)' })),
  requestId: Type.Optional(Id), dateFrom: Text('first report day (ISO); default the request\'s from date'),
  dateTo: Text('last report day, inclusive (ISO); default the request\'s to date'),
  $limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
export const LinkClaimsBody = Type.Object({
  requestId: Id,
  claimIds: Type.Array(Id, { maxItems: 1000, description: 'the claims to link; none links one placeholder entry' }),
}, { additionalProperties: false });
export const RequestIdQuery = Type.Object({ requestId: Id });

// ---- export-requests
export const CreateExportBody = Type.Object({
  filename: Type.String({ maxLength: 80, description: "'coi_export_' plus the local timestamp" }),
  dateFrom: Type.Optional(Type.String({ format: 'date-time' })), dateTo: Type.Optional(Type.String({ format: 'date-time' })),
  filterByType: Type.Optional(StringEnum(REQUEST_TYPE_FILTERS)),
}, { additionalProperties: false });
export const ExportRecord = Type.Object({
  id: Id, filename: Type.String(), state: StringEnum(['running', 'done', 'failed'] as const), dateFrom: Type.Optional(NullableTimestamp),
  dateTo: Type.Optional(NullableTimestamp), filterByType: Type.Optional(Nullable(Type.String())), rowsTotal: Type.Integer(), rowsWritten: Type.Integer(),
  size: Type.Optional(Nullable(Type.Integer())), createdBy: Type.String(), createdAt: Timestamp, isMockApi: Type.Optional(Type.Boolean()),
});
