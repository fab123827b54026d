import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/** A person who signs in. External users have a password hash; internal users come through single sign-on. */
export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    ...baseProperties,
    entityId: p.string().nullable(),
    affiliation: p.string(), // product name for internal users, 'external' otherwise
    personType: p.string().nullable(), // Employee or Student (internal)
    email: p.string().unique(), // stored lowercased
    passwordHash: p.string().nullable().hidden().lazy(),
    firstName: p.string(),
    lastName: p.string(),
    middleInitial: p.string().nullable(),
    phone: p.string().nullable(),
    company: p.string().nullable(),
    isExternal: p.boolean().default(false),
    mustChangePassword: p.boolean().default(false),
    lastLogin: p.datetime().nullable(),
    pswdResetAt: p.datetime().nullable(),
    deletedAt: p.datetime().nullable(), // set = deactivated (an administrator can reactivate)
    /** Raised by logout and by a password change: every token carries the version it was signed with. */
    sessionVersion: p.integer().default(0),
  },
});
export type User = InferEntity<typeof UserSchema>;
