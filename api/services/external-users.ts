/**
 * External users as administrators see them (spec 2 §7.11, spec 1 §5 External user search): a search needs at
 * least one non-empty parameter (trimmed, curly apostrophes made straight); deactivating sets `deletedAt`, which
 * refuses the user's sign-in and every live token with `User account has been deactivated.`.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSchema, type User } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { badRequest, notFound } from '../errors';
import type { RegistrantSearchQuery, UserPatchBody } from '../schemas/external-user.schema';

export const externalUserView = (u: User) => ({
  id: u.id, firstName: u.firstName, lastName: u.lastName, middleInitial: u.middleInitial ?? null, company: u.company ?? null,
  email: u.email, phone: u.phone ?? null, active: !u.deletedAt, lastLogin: u.lastLogin?.toISOString() ?? null,
});

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function searchRegistrants(em: EntityManager, query: RegistrantSearchQuery) {
  const where: Record<string, unknown> = { isExternal: true };
  let any = false;
  for (const key of ['lastName', 'firstName', 'company', 'email'] as const) {
    const value = (query[key] ?? '').replace(/[\u2018\u2019]/g, "'").trim();
    if (!value) continue;
    any = true;
    where[key] = { $ilike: `%${escapeLike(value)}%` };
  }
  if (!any) throw badRequest(MESSAGES.searchParametersRequired);
  const users = await em.find(UserSchema, where, { orderBy: { lastName: 'asc', firstName: 'asc', id: 'asc' }, limit: 1000 });
  return users.map(externalUserView);
}

async function externalUser(em: EntityManager, id: number) {
  const user = await em.findOne(UserSchema, { id, isExternal: true });
  if (!user) throw notFound();
  return user;
}

export async function getExternalUser(em: EntityManager, id: number) {
  return externalUserView(await externalUser(em, id));
}

export async function patchExternalUser(em: EntityManager, id: number, body: UserPatchBody) {
  const user = await externalUser(em, id);
  user.deletedAt = body.active ? null : (user.deletedAt ?? new Date());
  await em.flush();
  return externalUserView(user);
}
