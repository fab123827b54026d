/**
 * Who sees what of the people directory (issue #16 item 6; spec 1 §3 "Person search result"). Internal requesters
 * pick a person by search and need only what the request form copies: names, email, title and work phone. Birth,
 * hire and termination dates, the employment status (it tells who was terminated) and the type (Employee or Student;
 * "shown to admins") are personnel data: administrators only. External requesters do not search at all (spec 1 §2
 * "They type person details themselves").
 */
export const DIRECTORY_FIELDS_FOR_REQUESTERS = [
  'id', 'employeeId', 'email', 'lastName', 'firstName', 'middleInitial', 'title', 'workPhone',
] as const;

export const DIRECTORY_FIELDS_FOR_ADMINS = [
  ...DIRECTORY_FIELDS_FOR_REQUESTERS, 'birthDate', 'hireDate', 'employmentStatus', 'terminationDate', 'personType',
] as const;

export const directoryFieldsFor = (user: { isAdmin: boolean }) =>
  user.isAdmin ? DIRECTORY_FIELDS_FOR_ADMINS : DIRECTORY_FIELDS_FOR_REQUESTERS;
