import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PersonSchema, type Person } from '../../db/entities';
import { directoryFieldsFor, PERSON_MESSAGES } from '../../domain';
import { badRequest, forbidden } from '../errors';
import { currentUser, requireAdmin, requireUser } from '../plugins/auth';
import { errorResponses } from '../../contract/error.schema';
import { DirectoryPersonBody, PatchPersonBody, PeopleList, PeopleQuery, PersonRecord } from '../../contract/person.schema';
import { IdParams } from '../../contract/primitives';
import { saveDirectoryPerson, updatePerson } from '../../services/desk/people';
import { wakeUpsOf } from '../../services/requests/wake-ups';
import { recordById } from '../../services/requests/record-by-id';

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `api/v1/people` (spec 2 §7.5): internal requesters and administrators search the directory by contains on
 * employee id, email, or last and first name together. External requesters type persons themselves. What each
 * sees of a person: domain/people-directory.ts (dates, status and type for administrators only).
 */
const peopleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireUser);
  app.get('/people', {
    schema: {
      tags: ['people'], summary: 'Search the employee and student directory', querystring: PeopleQuery,
      response: { 200: PeopleList, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const user = currentUser(request);
    if (user.isExternal) throw forbidden('External requesters type person details themselves');
    const q = Object.fromEntries(Object.entries(request.query).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v]));
    const { employeeId, email, lastName, firstName } = q as PeopleQuery;
    if (!employeeId && !email && !lastName && !firstName) throw badRequest(PERSON_MESSAGES.criteriaRequired, { search: PERSON_MESSAGES.criteriaRequired });
    if (!!lastName !== !!firstName && !employeeId && !email) {
      throw badRequest(PERSON_MESSAGES.nameTogether, { [lastName ? 'firstName' : 'lastName']: PERSON_MESSAGES.nameTogether });
    }
    const where: Record<string, unknown>[] = [];
    if (employeeId) where.push({ employeeId: { $ilike: escapeLike(employeeId) } });
    if (email) where.push({ email: { $ilike: escapeLike(email) } });
    if (lastName && firstName) where.push({ lastName: { $ilike: escapeLike(lastName) }, firstName: { $ilike: escapeLike(firstName) } });
    const [rows, total] = await request.em.findAndCount(PersonSchema, { $and: where } as never, {
      limit: request.query.$limit ?? 25, orderBy: { lastName: 'asc', firstName: 'asc', id: 'asc' },
    });
    return {
      total,
      data: rows.map((p) => personRecord(p, user)),
    };
  });

  app.get('/people/:id', {
    schema: { tags: ['people'], summary: 'A person of the directory (internal users; dates for administrators only)', params: IdParams, response: { 200: PersonRecord, ...errorResponses(401, 403, 404) } },
  }, async (request) => {
    const user = currentUser(request);
    if (user.isExternal) throw forbidden('External requesters type person details themselves');
    return personRecord(await recordById(request.em, PersonSchema, request.params.id), user);
  });

  // Directory writes: administrators only. A person shown active wakes requests waiting for them.
  app.patch('/people/:id', {
    onRequest: requireAdmin,
    schema: {
      tags: ['people'], summary: 'Edit a person of the directory', params: IdParams, body: PatchPersonBody,
      response: { 200: PersonRecord, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => personRecord(await updatePerson(request.em, request.params.id, request.body, wakeUpsOf(app)), ADMIN));
  app.post('/people', {
    onRequest: requireAdmin,
    schema: {
      tags: ['people'], summary: 'Directory update: add or replace the person with this employee id', body: DirectoryPersonBody,
      response: { 200: PersonRecord, 201: PersonRecord, ...errorResponses(400, 401, 403) },
    },
  }, async (request, reply) => {
    const { person, created } = await saveDirectoryPerson(request.em, request.body, wakeUpsOf(app));
    return reply.code(created ? 201 : 200).send(personRecord(person, ADMIN));
  });
};

const ADMIN = { isAdmin: true };

function personRecord(p: Person, viewer: { isAdmin: boolean }): PersonRecord {
  const full: Required<PersonRecord> = {
    id: p.id, employeeId: p.employeeId, email: p.email ?? null, lastName: p.lastName, firstName: p.firstName,
    middleInitial: p.middleInitial ?? null, title: p.title ?? null, workPhone: p.workPhone ?? null,
    birthDate: p.birthDate ?? null, hireDate: p.hireDate ?? null, employmentStatus: p.employmentStatus,
    terminationDate: p.terminationDate ?? null, personType: p.personType,
  };
  return Object.fromEntries(directoryFieldsFor(viewer).map((field) => [field, full[field]])) as PersonRecord;
}

export default peopleRoutes;
