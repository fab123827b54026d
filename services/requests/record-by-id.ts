/**
 * `GET collection/{id}` (spec 2 §7.1 "single record") for the resources that list: one row by id, or the spec's
 * not-found answer. Access is the route's (its onRequest hook) plus, where rows belong to a request, the caller's
 * right to see that request (services/requests/request-access.ts), answered as `GET requests/{id}` answers it.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';
import { notFound } from '../refusals';
import type { SessionUser } from '../../contract/session-user.schema';
import { findVisibleRequest } from './request-access';

const recordNotFound = (id: number) => notFound(`No record found for id '${id}'`);

export async function recordById<T extends object>(em: EntityManager, entity: EntityName<T>, id: number, where: object = {}): Promise<T> {
  const row = await em.findOne(entity, { id, ...where } as never);
  if (!row) throw recordNotFound(id);
  return row as T;
}

/** A row of a request (documents, discussions), for a caller who may see that request. */
export async function requestRecordById<T extends { requestId: number }>(
  em: EntityManager, user: SessionUser, entity: EntityName<T>, id: number, where: object = {},
): Promise<T> {
  const row = await recordById(em, entity, id, where);
  await findVisibleRequest(em, user, row.requestId);
  return row;
}
