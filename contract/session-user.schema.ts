/** The signed-in user as the API and the UI see it (spec 2 §7.2, §7.11: admin = email in the admin list). */
import { Type, type Static } from 'typebox';
import { Id, Nullable } from './primitives';

export const SessionUserRecord = Type.Object({
  id: Id,
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  middleInitial: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  company: Nullable(Type.String()),
  affiliation: Type.String(),
  personType: Nullable(Type.String()),
  isAdmin: Type.Boolean(),
  isExternal: Type.Boolean(),
  /** The user proved they own `email` (confirmation link or single sign-on); until then nothing is granted by it. */
  emailConfirmed: Type.Boolean(),
  /** An address change waiting for its confirmation link (`email` stays in force until then). */
  pendingEmail: Nullable(Type.String()),
  mustChangePassword: Type.Boolean(),
  isPswdExpired: Type.Boolean(),
  lastLogin: Nullable(Type.String({ format: 'date-time' })),
});
export type SessionUser = Static<typeof SessionUserRecord>;
