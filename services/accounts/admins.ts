/**
 * Manage Administrative Users (spec 1 §5 Manage screens, spec 2 §7.11): first name, last name and email required,
 * values trimmed, email lowercased and unique among admins; an admin can neither delete their own entry nor change
 * their own email.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminSchema, type Admin } from '../../db/entities';
import { isEmailAddress, MESSAGES } from '../../domain';
import { forbidden, invalid, notFound } from '../refusals';
import type { AdminCreateBody, AdminPatchBody } from '../../contract/admin.schema';
import type { SessionUser } from '../../contract/session-user.schema';

const view = (a: Admin) => ({ id: a.id, firstName: a.firstName, lastName: a.lastName, email: a.email });

function clean(body: AdminPatchBody, required: boolean) {
  const out: AdminPatchBody = {};
  const errors: Record<string, string> = {};
  for (const key of ['firstName', 'lastName', 'email'] as const) {
    const value = body[key];
    if (value === undefined && !required) continue;
    const trimmed = (value ?? '').trim();
    if (!trimmed) errors[key] = MESSAGES.required;
    out[key] = key === 'email' ? trimmed.toLowerCase() : trimmed;
  }
  if (out.email && !errors.email && !isEmailAddress(out.email)) errors.email = MESSAGES.invalidEmail;
  if (Object.keys(errors).length) throw invalid(Object.values(errors)[0], errors);
  return out;
}

async function ensureUnique(em: EntityManager, email: string | undefined, exceptId?: number) {
  if (!email) return;
  const other = await em.findOne(AdminSchema, { email });
  if (other && other.id !== exceptId) throw invalid(MESSAGES.adminEmailInUse, { email: MESSAGES.adminEmailInUse });
}

export async function listAdmins(em: EntityManager) {
  return (await em.find(AdminSchema, {}, { orderBy: { lastName: 'asc', firstName: 'asc', id: 'asc' } })).map(view);
}

export async function createAdmin(em: EntityManager, body: AdminCreateBody) {
  const data = clean(body, true) as AdminCreateBody;
  await ensureUnique(em, data.email);
  const admin = em.create(AdminSchema, data);
  await em.flush();
  return view(admin);
}

export async function updateAdmin(em: EntityManager, me: SessionUser, id: number, body: AdminPatchBody) {
  const admin = await em.findOne(AdminSchema, { id });
  if (!admin) throw notFound();
  const data = clean(body, false);
  if (data.email && data.email !== admin.email && admin.email === me.email.toLowerCase()) {
    throw forbidden('You cannot change your own email address');
  }
  await ensureUnique(em, data.email, id);
  em.assign(admin, data);
  await em.flush();
  return view(admin);
}

export async function removeAdmin(em: EntityManager, me: SessionUser, id: number) {
  const admin = await em.findOne(AdminSchema, { id });
  if (!admin) throw notFound();
  if (admin.email === me.email.toLowerCase()) throw forbidden('You cannot remove your own administrative rights');
  const removed = view(admin);
  em.remove(admin);
  await em.flush();
  return removed;
}
