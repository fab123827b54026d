import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/** "A user is an administrator when the email is in the admin list" (spec 2 §7.11). */
export const AdminSchema = defineEntity({
  name: 'Admin',
  tableName: 'admins',
  properties: {
    ...baseProperties,
    firstName: p.string(),
    lastName: p.string(),
    email: p.string().unique(), // stored lowercased
  },
});
export type Admin = InferEntity<typeof AdminSchema>;
