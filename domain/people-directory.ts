/**
 * Who sees what of the people directory (spec 1 §3 "Person search result"). Internal requesters
 * pick a person by search and need only what the request form copies: names, email, title and work phone. Birth,
 * hire and termination dates, the employment status (it tells who was terminated) and the type (Employee or Student;
 * "shown to admins") are personnel data: administrators only. External requesters do not search at all (spec 1 §2
 * "They type person details themselves").
 */
import { NON_EMPLOYEE_IS_CODES } from './reference-lists';

const DIRECTORY_FIELDS_FOR_REQUESTERS = [
  'id', 'employeeId', 'email', 'lastName', 'firstName', 'middleInitial', 'title', 'workPhone',
] as const;

const DIRECTORY_FIELDS_FOR_ADMINS = [
  ...DIRECTORY_FIELDS_FOR_REQUESTERS, 'birthDate', 'hireDate', 'employmentStatus', 'terminationDate', 'personType',
] as const;

export const directoryFieldsFor = (user: { isAdmin: boolean }) =>
  user.isAdmin ? DIRECTORY_FIELDS_FOR_ADMINS : DIRECTORY_FIELDS_FOR_REQUESTERS;

/**
 * The IS codes of spec 2 §9.3 (Student, Volunteers, Not yet at the university, …) stand for a kind of non-employee,
 * shared by everyone of that kind: they identify nobody. Only another employee id names one person.
 */
const SHARED_IS_CODES: ReadonlySet<string> = new Set(NON_EMPLOYEE_IS_CODES.map((c) => c.code));

export const isSharedIsCode = (employeeId: string | null | undefined): boolean => SHARED_IS_CODES.has((employeeId ?? '').trim());

/** The employee id as the name of one person: trimmed, or null when it is empty or a shared IS code. */
export function personalEmployeeId(employeeId: string | null | undefined): string | null {
  const id = (employeeId ?? '').trim();
  return id && !isSharedIsCode(id) ? id : null;
}

/** What a directory record under a shared IS code is known by, since its employee id names nobody. */
export type SharedCodeIdentity =
  | { employeeId: string; email: string }
  | { employeeId: string; email: null; lastName: string; firstName: string; middleInitial: string | null; birthDate: Date | null };

/**
 * Who a directory feed's record under a shared IS code is: under the same code, the person with the same email (an
 * address is one person's), or, for a record without one, the same names and birth date. A second run of the same
 * feed finds each of them again instead of adding them once more; two people who share the code differ by these.
 */
export function sharedCodeIdentity(record: {
  employeeId: string; email?: string | null; lastName: string; firstName: string; middleInitial?: string | null; birthDate?: Date | null;
}): SharedCodeIdentity {
  const employeeId = record.employeeId.trim();
  const email = (record.email ?? '').trim().toLowerCase();
  if (email) return { employeeId, email };
  return {
    employeeId, email: null, lastName: record.lastName, firstName: record.firstName,
    middleInitial: record.middleInitial ?? null, birthDate: record.birthDate ?? null,
  };
}
