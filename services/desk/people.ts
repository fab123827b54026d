/**
 * Writes to the employee directory: an administrator edits a person's record, or the directory feed
 * adds or replaces one by employee id. After the commit, requests waiting in Pending Employment for that person
 * wake if the record now shows them active (the wake-up workflow decides which: domain/wake-ups.ts).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { PersonSchema, type Person } from '../../db/entities';
import { personalEmployeeId, sharedCodeIdentity } from '../../domain';
import { notFound } from '../refusals';
import type { DirectoryPersonBody, PatchPersonBody } from '../../contract/person.schema';
import type { WakeUps } from '../requests/wake-ups';

const DATE_FIELDS = ['birthDate', 'hireDate', 'terminationDate'] as const;
type DateField = (typeof DATE_FIELDS)[number];
/** A body's fields as columns: the same names, dates where the body has ISO strings. */
type ColumnsOf<B> = { [K in keyof B]: K extends DateField ? Date | Exclude<B[K], string> : B[K] };

/** Body values as columns: ISO strings become dates, an absent field stays as it is. */
function columnsOf<B extends PatchPersonBody>(body: B): ColumnsOf<B> {
  const columns: Record<string, unknown> = { ...body };
  for (const field of DATE_FIELDS) {
    const value = body[field];
    if (value !== undefined) columns[field] = value === null ? null : new Date(value);
  }
  if (typeof body.email === 'string') columns.email = body.email.trim().toLowerCase();
  return columns as ColumnsOf<B>;
}

/** A person under a shared IS code is nobody in particular: no waiting request can be theirs. */
async function wakeWaitingRequests(wakeUps: WakeUps, person: Person): Promise<void> {
  if (personalEmployeeId(person.employeeId)) await wakeUps.start({ reason: 'employment', sourceId: person.id }, person.updatedAt);
}

export async function updatePerson(em: EntityManager, id: number, body: PatchPersonBody, wakeUps: WakeUps): Promise<Person> {
  const person = await em.findOne(PersonSchema, id);
  if (!person) throw notFound(`No record found for id '${id}'`);
  em.assign(person, columnsOf(body));
  // Saved even when nothing changed, so the edit counts as a change of the directory (updatedAt) for wake-ups.
  person.updatedAt = new Date();
  await em.flush();
  await wakeWaitingRequests(wakeUps, person);
  return person;
}

/**
 * A directory update: the person with that employee id is replaced, or added. A shared IS code (22222, 12345, …)
 * names a kind of person, not one: such a record replaces the one of the same person under that code (their email,
 * else their names and birth date: domain/people-directory.ts sharedCodeIdentity), never another's, so running the
 * same feed again changes nothing.
 */
export async function saveDirectoryPerson(em: EntityManager, body: DirectoryPersonBody, wakeUps: WakeUps): Promise<{ person: Person; created: boolean }> {
  const employeeId = body.employeeId.trim();
  const columns = { middleInitial: null, title: null, workPhone: null, birthDate: null, hireDate: null, terminationDate: null, email: null, ...columnsOf(body), employeeId };
  let person = personalEmployeeId(employeeId)
    ? await em.findOne(PersonSchema, { employeeId })
    : await em.findOne(PersonSchema, sharedCodeIdentity(columns), { orderBy: { id: 'asc' } });
  const created = !person;
  if (person) em.assign(person, columns);
  else person = em.create(PersonSchema, columns);
  person.updatedAt = new Date();
  await em.flush();
  await wakeWaitingRequests(wakeUps, person);
  return { person, created };
}
