/**
 * Route schemas of rosters uploaded in bulk (domain/rosters.ts, services/rosters/): the template of a kind, the upload,
 * the roster with a page of its rows, a row fixed in place, and "Submit all valid".
 */
import { Type, type Static } from 'typebox';
import { ROSTER_KINDS, ROSTER_PAGE_SIZE, ROSTER_ROW_STATUSES, TEXT_MAX, LONG_TEXT_MAX } from '../domain';
import { Id, Nullable, StringEnum, Timestamp } from './primitives';

export const RosterKindSchema = StringEnum(ROSTER_KINDS, { description: '"credentialing" (claim history) or a certificate type' });

export const RosterTemplateQuery = Type.Object({
  kind: RosterKindSchema,
  format: Type.Optional(StringEnum(['xlsx', 'csv'] as const, { description: 'xlsx (default) or csv (UTF-8)' })),
}, { additionalProperties: false });
export type RosterTemplateQuery = Static<typeof RosterTemplateQuery>;

export const RosterParams = Type.Object({ id: Id });
export const RosterRowParams = Type.Object({ id: Id, rowId: Id });

export const RosterPageQuery = Type.Object({
  $skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  $limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ROSTER_PAGE_SIZE })),
  status: Type.Optional(StringEnum(ROSTER_ROW_STATUSES, { description: 'only rows in this state' })),
}, { additionalProperties: false });

const Cells = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: Math.max(TEXT_MAX, LONG_TEXT_MAX) }), {
  description: 'cell text by field name (the template column\'s field)',
});

export const RosterRowRecord = Type.Object({
  id: Id,
  line: Type.Integer({ description: 'the row\'s number in the file (the header is row 1)' }),
  values: Cells,
  errors: Type.Record(Type.String(), Type.String(), { description: 'the form\'s message per field name; empty when the row is valid' }),
  status: StringEnum(ROSTER_ROW_STATUSES),
  requestId: Nullable(Type.Integer({ description: 'the draft (then request) the row became' })),
  outcome: Nullable(Type.String({ description: 'why the row waits or was refused at submit' })),
});
export type RosterRowRecord = Static<typeof RosterRowRecord>;

const Counts = Type.Object(Object.fromEntries([...ROSTER_ROW_STATUSES, 'total'].map((s) => [s, Type.Integer({ minimum: 0 })])) as Record<string, ReturnType<typeof Type.Integer>>);

export const RosterRecord = Type.Object({
  id: Id,
  kind: RosterKindSchema,
  fileName: Type.String(),
  createdAt: Timestamp,
  ownerId: Id,
  columns: Type.Array(Type.Object({ name: Type.String(), label: Type.String() })),
  counts: Counts,
  submitting: Type.Boolean({ description: 'rows are still queued or being submitted: read again for progress' }),
  message: Nullable(Type.String()),
  rows: Type.Object({ total: Type.Integer({ minimum: 0 }), skip: Type.Integer({ minimum: 0 }), limit: Type.Integer({ minimum: 0 }), data: Type.Array(RosterRowRecord) }),
});
export type RosterRecord = Static<typeof RosterRecord>;

export const RosterSummaryRecord = Type.Object({
  id: Id, kind: RosterKindSchema, fileName: Type.String(), createdAt: Timestamp,
  total: Type.Integer(), submitted: Type.Integer(), invalid: Type.Integer(),
});
export const RosterList = Type.Object({ data: Type.Array(RosterSummaryRecord) });

export const RosterRowBody = Type.Object({ values: Cells }, { additionalProperties: false });
export type RosterRowBody = Static<typeof RosterRowBody>;
