/** External users for administrators: `search-registrants` and `users` (spec 2 §7.11). Never the password. */
import { Type, type Static } from 'typebox';
import { TEXT_MAX } from '../domain';
import { Id, Nullable } from './primitives';

export const ExternalUserRecord = Type.Object({
  id: Id,
  firstName: Type.String(),
  lastName: Type.String(),
  middleInitial: Nullable(Type.String()),
  company: Nullable(Type.String()),
  email: Type.String(),
  phone: Nullable(Type.String()),
  /** false when an administrator deactivated the account. */
  active: Type.Boolean(),
  lastLogin: Nullable(Type.String({ format: 'date-time' })),
  /** The account proved it owns `email`. */
  emailConfirmed: Type.Boolean(),
  /** An address change waiting for its confirmation link; `email` stays in force until then. */
  pendingEmail: Nullable(Type.String()),
});
export const ExternalUserList = Type.Array(ExternalUserRecord);

const Text = Type.Optional(Type.String({ maxLength: TEXT_MAX }));
export const RegistrantSearchQuery = Type.Object({ lastName: Text, firstName: Text, company: Text, email: Text });
export type RegistrantSearchQuery = Static<typeof RegistrantSearchQuery>;

/** `GET users` (spec 2 §7.11 "find and get via users"): the same filters, none required, paged. */
export const UserFindQuery = Type.Object({
  lastName: Text, firstName: Text, company: Text, email: Text,
  $limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 1000 })),
  $skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, default: 0 })),
});
export type UserFindQuery = Static<typeof UserFindQuery>;

const Field = Type.Optional(Type.String({ maxLength: 300 }));
/** Profile fields (the external user themself, or an administrator) and, for administrators only, `active`. */
export const UserPatchBody = Type.Object({
  lastName: Field, firstName: Field, middleInitial: Field, company: Field, phone: Field, email: Field,
  currentPassword: Type.Optional(Type.String({ maxLength: 200, description: 'the user\'s own password, required when they change their own email' })),
  active: Type.Optional(Type.Boolean({ description: 'administrators: deactivate (false) or reactivate (true)' })),
}, { additionalProperties: false });
export type UserPatchBody = Static<typeof UserPatchBody>;
