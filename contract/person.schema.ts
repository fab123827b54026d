/** The people directory (spec 1 §3 "Person search result", spec 2 §7.5). */
import { Type, type Static } from 'typebox';
import { PERSON_MESSAGES } from '../domain/messages';
import { Id, Nullable, NullableTimestamp, StringEnum } from './primitives';

const criterion = Type.Optional(Type.String({ maxLength: 200 }));
export const PeopleQuery = Type.Object({
  employeeId: criterion, email: criterion, lastName: criterion, firstName: criterion,
  $limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
});
export type PeopleQuery = Static<typeof PeopleQuery>;

const nullableText = Nullable(Type.String());
/** Birth, hire and termination dates, employment status and type: administrators only (domain/people-directory.ts). */
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
  employmentStatus: Type.Optional(Type.String({ description: 'A active, T terminated (administrators only)' })),
  terminationDate: Type.Optional(NullableTimestamp),
  personType: Type.Optional(Type.String({ description: 'Employee or Student (administrators only)' })),
});
export type PersonRecord = Static<typeof PersonRecord>;
export const PeopleList = Type.Object({ total: Type.Integer(), data: Type.Array(PersonRecord) });

/**
 * A directory record as an administrator or the directory feed writes it: dates as ISO timestamps,
 * employment status A (active) or T (terminated). PATCH sends only what changes; POST (a directory update) names
 * the person by employee id and adds or replaces the record.
 */
/** A date on a person form: ISO date-time or null; anything else answers the spec's `Invalid date`. */
const PersonDate = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time', errorMessage: PERSON_MESSAGES.invalidDate });

const personFields = {
  email: Type.Optional(Nullable(Type.String({ maxLength: 255, format: 'email' }))),
  lastName: Type.String({ minLength: 1, maxLength: 255 }),
  firstName: Type.String({ minLength: 1, maxLength: 255 }),
  middleInitial: Type.Optional(Nullable(Type.String({ maxLength: 5 }))),
  title: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  workPhone: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  birthDate: Type.Optional(PersonDate),
  hireDate: Type.Optional(PersonDate),
  employmentStatus: StringEnum(['A', 'T'], { description: 'A active, T terminated' }),
  terminationDate: Type.Optional(PersonDate),
  personType: StringEnum(['Employee', 'Student']),
};
export const DirectoryPersonBody = Type.Object({ employeeId: Type.String({ minLength: 1, maxLength: 50 }), ...personFields });
export type DirectoryPersonBody = Static<typeof DirectoryPersonBody>;
export const PatchPersonBody = Type.Partial(Type.Object(personFields), { minProperties: 1, additionalProperties: false });
export type PatchPersonBody = Static<typeof PatchPersonBody>;
