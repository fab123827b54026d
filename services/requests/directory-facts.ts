/**
 * The directory's employment facts on a request: when a request names a person by employee id,
 * their hire date, employment status and termination date are copied from the directory as it is at the save, so an
 * administrator sees them on the request (requesters never do: services/requests/request-access.ts). A request whose
 * employee id matches no one, or that has none, carries none; nor does one under a shared IS code (22222 Not yet at
 * the university, 12345 Student, …): the code is shared by many people and names none of them.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { PersonSchema, type Request } from '../../db/entities';
import { personalEmployeeId } from '../../domain';

export async function copyDirectoryFacts(em: EntityManager, row: Request): Promise<void> {
  const employeeId = personalEmployeeId(row.employeeId);
  const person = employeeId ? await em.findOne(PersonSchema, { employeeId }) : null;
  row.hireDate = person?.hireDate ?? null;
  row.employmentStatus = person?.employmentStatus ?? null;
  row.terminationDate = person?.terminationDate ?? null;
}
