import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/** A person who signs in. External users have a password hash; internal users come through single sign-on. */
export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    ...baseProperties,
    entityId: p.string().nullable(),
    /** set by an administrator (or a revoked instant certificate): this requester's requests wait for a person */
    instantHoldAt: p.datetime().nullable(),
    instantHoldReason: p.text().nullable(),
    affiliation: p.string(), // product name for internal users, 'external' otherwise
    personType: p.string().nullable(), // Employee or Student (internal)
    /** Stored lowercased. Unique per kind of account (lower(email), isExternal): single sign-on may create an internal
     * user apart from an unconfirmed external account with the same address (Migration20261124000000_identity). */
    email: p.string(),
    /** When the user proved they own `email` (a confirmation link, or single sign-on); null = unconfirmed, and then
     * nothing is granted by the address: no administrator rights, no requests that merely name it. */
    emailConfirmedAt: p.datetime().nullable(),
    /** An address change waiting for its confirmation link; `email` stays in force until the link is used. */
    pendingEmail: p.string().nullable(),
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
