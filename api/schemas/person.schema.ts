/** The people directory (spec 1 §3 "Person search result", spec 2 §7.5). */
import { Type, type Static } from 'typebox';
import { Id, Nullable, NullableTimestamp } from './primitives';

const criterion = Type.Optional(Type.String({ maxLength: 200 }));
export const PeopleQuery = Type.Object({
  employeeId: criterion, email: criterion, lastName: criterion, firstName: criterion,
  $limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
});
export type PeopleQuery = Static<typeof PeopleQuery>;

const nullableText = Nullable(Type.String());
export const PersonRecord = Type.Object({
  id: Id,
  employeeId: Type.String(),
  email: nullableText,
  lastName: Type.String(),
  firstName: Type.String(),
  middleInitial: nullableText,
  title: nullableText,
  workPhone: nullableText,
  birthDate: Type.Optional(NullableTimestamp),
  hireDate: Type.Optional(NullableTimestamp),
  employmentStatus: Type.String({ description: 'A active, T terminated' }),
  terminationDate: Type.Optional(NullableTimestamp),
  personType: Type.Optional(Type.String({ description: 'Employee or Student (administrators only)' })),
});
export type PersonRecord = Static<typeof PersonRecord>;
export const PeopleList = Type.Object({ total: Type.Integer(), data: Type.Array(PersonRecord) });
