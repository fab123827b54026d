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
