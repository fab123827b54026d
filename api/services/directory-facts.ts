/**
 * The directory's employment facts on a request (issue #22 item 15): when a request names a person by employee id,
 * their hire date, employment status and termination date are copied from the directory as it is at the save, so an
 * administrator sees them on the request (requesters never do: api/services/request-access.ts). A request whose
 * employee id matches no one, or that has none, carries none.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { PersonSchema, type Request } from '../../db/entities';

export async function copyDirectoryFacts(em: EntityManager, row: Request): Promise<void> {
  const person = row.employeeId ? await em.findOne(PersonSchema, { employeeId: row.employeeId }) : null;
  row.hireDate = person?.hireDate ?? null;
  row.employmentStatus = person?.employmentStatus ?? null;
  row.terminationDate = person?.terminationDate ?? null;
}
