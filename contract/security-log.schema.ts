/** `GET api/v1/security-log`: administrators only. */
import { Type, type Static } from 'typebox';
import { SECURITY_EVENT_KINDS } from '../domain/security-events';
import { Nullable, StringEnum } from './primitives';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a day (YYYY-MM-DD) in the office time zone' });
export const SecurityLogQuery = Type.Object({
  $limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  $skip: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  userId: Type.Optional(Type.Integer({ minimum: 1 })),
  email: Type.Optional(Type.String({ maxLength: 255, description: 'part of the address (contains, case-insensitive)' })),
  kind: Type.Optional(StringEnum(Object.keys(SECURITY_EVENT_KINDS) as (keyof typeof SECURITY_EVENT_KINDS)[])),
  from: Type.Optional(Day),
  to: Type.Optional(Day),
}, { additionalProperties: false });
export type SecurityLogQuery = Static<typeof SecurityLogQuery>;

export const SecurityLogEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  kind: Type.String(),
  kindLabel: Type.String(),
  userId: Nullable(Type.Integer()),
  userName: Nullable(Type.String()),
  email: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  detail: Type.Record(Type.String(), Type.Unknown()),
});
export const SecurityLogPage = Type.Object({
  total: Type.Integer(), limit: Type.Integer(), skip: Type.Integer(), data: Type.Array(SecurityLogEntry),
});
export type SecurityLogPage = Static<typeof SecurityLogPage>;
