/** `admins` (spec 2 §7.11): the admin list; a user is an administrator when the email is in it. */
import { Type, type Static } from 'typebox';
import { TEXT_MAX } from '../domain';
import { Id } from './primitives';

export const AdminRecord = Type.Object({ id: Id, firstName: Type.String(), lastName: Type.String(), email: Type.String() });
export const AdminList = Type.Array(AdminRecord);

const Text = Type.String({ maxLength: TEXT_MAX });
export const AdminCreateBody = Type.Object({ firstName: Text, lastName: Text, email: Text });
export type AdminCreateBody = Static<typeof AdminCreateBody>;
export const AdminPatchBody = Type.Partial(AdminCreateBody);
export type AdminPatchBody = Static<typeof AdminPatchBody>;
