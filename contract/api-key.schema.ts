/**
 * `api-keys`: keys an external account creates for its organisation's systems (domain/api-keys.ts). The key itself
 * is in the create answer only; lists show its prefix, scopes and use.
 */
import { Type, type Static } from 'typebox';
import { API_KEY_NAME_MAX, API_KEY_SCOPE_NAMES } from '../domain/api-keys';
import { Id, Nullable, NullableTimestamp, StringEnum, Timestamp } from './primitives';

const Scope = StringEnum(API_KEY_SCOPE_NAMES, { description: 'requests:read, requests:write or letters:read' });

const EXAMPLE_KEY = {
  id: 7, name: 'Credentialing system', prefix: 'k3v7q2xa', scopes: ['requests:read', 'letters:read'],
  createdAt: '2026-12-03T15:04:05.000Z', lastUsedAt: '2026-12-03T16:10:00.000Z', revokedAt: null,
};

export const ApiKeyRecord = Type.Object({
  id: Id,
  name: Type.String(),
  /** the part of the key shown in lists and the log: `coi_<prefix>_…` */
  prefix: Type.String(),
  scopes: Type.Array(Scope),
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
}, { examples: [EXAMPLE_KEY] });
export type ApiKeyRecord = Static<typeof ApiKeyRecord>;

export const ApiKeyList = Type.Array(ApiKeyRecord, { examples: [[EXAMPLE_KEY]] });

/** A key as administrators see it: with the account that owns it. */
export const AdminApiKeyRecord = Type.Object({
  ...ApiKeyRecord.properties,
  owner: Type.Object({ id: Id, email: Type.String(), firstName: Type.String(), lastName: Type.String(), company: Nullable(Type.String()) }),
});
export type AdminApiKeyRecord = Static<typeof AdminApiKeyRecord>;
export const AdminApiKeyList = Type.Array(AdminApiKeyRecord, {
  examples: [[{ ...EXAMPLE_KEY, owner: { id: 42, email: 'credentialing@clinic.example', firstName: 'Dana', lastName: 'Lee', company: 'Clinic' } }]],
});

export const ApiKeyCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX }),
  scopes: Type.Array(Scope, { minItems: 1, maxItems: API_KEY_SCOPE_NAMES.length, uniqueItems: true }),
}, { additionalProperties: false, examples: [{ name: 'Credentialing system', scopes: ['requests:read', 'requests:write', 'letters:read'] }] });
export type ApiKeyCreateBody = Static<typeof ApiKeyCreateBody>;

/** The create answer: the key, this once. */
export const CreatedApiKey = Type.Object({
  ...ApiKeyRecord.properties,
  key: Type.String({ description: 'The key: shown this once, stored only as its hash. Send it as `Authorization: Bearer <key>`.' }),
}, {
  examples: [{ ...EXAMPLE_KEY, lastUsedAt: null, key: 'coi_k3v7q2xa_0dG5mFh3y9QK2bWl8Zr1aT6uVx4cYn7pLs0eJ2kHq3M' }],
});
export type CreatedApiKey = Static<typeof CreatedApiKey>;
