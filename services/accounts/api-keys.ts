/**
 * API keys (domain/api-keys.ts): an external account's keys for its organisation's systems. Created with a random
 * 256-bit secret shown once; stored as its SHA-256 (domain/api-keys.ts says why no slow hash); listed by their
 * owner, and by administrators with their owner; revoked by either. What a call with a key may do is decided by the
 * door that reads the key (api/sessions/api-key-session.ts) and, as for any caller, by the use cases.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kysely, pooled } from '../../db/kysely';
import {
  API_KEY_MESSAGES, API_KEY_PATTERN, API_KEY_PREFIX, API_KEY_USE_RECORD_MS, API_KEYS_PER_ACCOUNT, type ApiKeyRefusal, type ApiKeyScope,
} from '../../domain/api-keys';
import type { AdminApiKeyRecord, ApiKeyCreateBody, ApiKeyRecord, CreatedApiKey } from '../../contract/api-key.schema';
import type { SessionUser } from '../../contract/session-user.schema';
import { conflict, forbidden, invalid, notFound } from '../refusals';
import { recordSecurityEvent } from '../desk/security-log';
import { reserveHit, type SqlRunner } from '../limits/rate-limits';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A new key: 8 base32 characters of prefix (40 bits), 32 random bytes of secret. */
export function generateApiKey(): { key: string; prefix: string } {
  const prefix = Array.from(randomBytes(8), (b) => BASE32[b & 31]).join('');
  return { key: `${API_KEY_PREFIX}${prefix}_${randomBytes(32).toString('base64url')}`, prefix };
}

export const hashApiKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/** The prefix of a well-formed key, or null. */
export const prefixOfApiKey = (key: string): string | null => API_KEY_PATTERN.exec(key)?.[1] ?? null;

/** Whether `key` is the one `storedHash` was made from, in time that does not depend on where they differ. */
export const apiKeyMatches = (key: string, storedHash: Buffer): boolean => {
  const hash = hashApiKey(key);
  return storedHash.length === hash.length && timingSafeEqual(hash, storedHash);
};

interface KeyRow { id: number; name: string; prefix: string; scopes: string[]; created_at: Date; last_used_at: Date | null; revoked_at: Date | null }

const recordOf = (row: KeyRow): ApiKeyRecord => ({
  id: row.id, name: row.name, prefix: row.prefix.trim(), scopes: row.scopes as ApiKeyScope[], createdAt: row.created_at,
  lastUsedAt: row.last_used_at, revokedAt: row.revoked_at,
});

const KEY_COLUMNS = ['k.id', 'k.name', 'k.prefix', 'k.scopes', 'k.created_at', 'k.last_used_at', 'k.revoked_at'] as const;

/** Only an external account with a proven address holds keys: the organisation is that account. */
function assertMayHoldKeys(user: SessionUser): void {
  if (!user.isExternal) throw forbidden(API_KEY_MESSAGES.externalOnly);
  if (!user.emailConfirmed) throw forbidden(API_KEY_MESSAGES.unconfirmed);
}

export async function createApiKey(em: EntityManager, user: SessionUser, body: ApiKeyCreateBody, ip: string | null): Promise<CreatedApiKey> {
  assertMayHoldKeys(user);
  const name = body.name.trim();
  if (!name) throw invalid('Please name the key', { name: 'The field above is required' });
  const { key, prefix } = generateApiKey();
  // One statement: the count of live keys and the insert, so two creates at once cannot both pass the limit check
  // unnoticed by more than the rows they race with (the limit is a tidiness bound, not a security one).
  const db = kysely(em);
  const live = await db.selectFrom('api_keys').select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', user.id).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
  if (Number(live.n) >= API_KEYS_PER_ACCOUNT) throw conflict(API_KEY_MESSAGES.tooManyKeys);
  const row = await db.insertInto('api_keys').values({
    user_id: user.id, name, prefix, secret_hash: hashApiKey(key), scopes: [...body.scopes].sort(), created_by: user.email,
  }).returning(['id', 'name', 'prefix', 'scopes', 'created_at', 'last_used_at', 'revoked_at']).executeTakeFirstOrThrow();
  await recordSecurityEvent(em, { kind: 'apiKeyCreated', userId: user.id, email: user.email, ip, detail: { keyId: row.id, prefix, name, scopes: row.scopes } });
  return { ...recordOf(row), key };
}

/** The caller's own keys, newest first (revoked ones included: the list is their history). */
export async function listOwnApiKeys(em: EntityManager, user: SessionUser): Promise<ApiKeyRecord[]> {
  assertMayHoldKeys(user);
  const rows = await kysely(em).selectFrom('api_keys as k').select(KEY_COLUMNS).where('k.user_id', '=', user.id)
    .orderBy('k.created_at', 'desc').orderBy('k.id', 'desc').execute();
  return rows.map(recordOf);
}

/** Every account's keys, for administrators: live ones first, then by creation. */
export async function listAllApiKeys(em: EntityManager): Promise<AdminApiKeyRecord[]> {
  const rows = await kysely(em).selectFrom('api_keys as k').innerJoin('users as u', 'u.id', 'k.user_id')
    .select([...KEY_COLUMNS, 'u.id as owner_id', 'u.email', 'u.first_name', 'u.last_name', 'u.company'])
    .orderBy(sql`k.revoked_at is not null`).orderBy('k.created_at', 'desc').orderBy('k.id', 'desc').execute();
  return rows.map((row) => ({
    ...recordOf(row),
    owner: { id: row.owner_id, email: row.email, firstName: row.first_name, lastName: row.last_name, company: row.company ?? null },
  }));
}

/**
 * Revokes a key: its owner, or an administrator (any account's). Someone else's key is "not found", as another
 * account's request is. Revoking a revoked key changes nothing and answers the key as it is.
 */
export async function revokeApiKey(em: EntityManager, user: SessionUser, id: number, ip: string | null): Promise<ApiKeyRecord> {
  if (!user.isAdmin) assertMayHoldKeys(user);
  const db = kysely(em);
  const found = await db.selectFrom('api_keys as k').select([...KEY_COLUMNS, 'k.user_id']).where('k.id', '=', id)
    .$if(!user.isAdmin, (q) => q.where('k.user_id', '=', user.id)).executeTakeFirst();
  if (!found) throw notFound(API_KEY_MESSAGES.notFound);
  if (found.revoked_at) return recordOf(found);
  const row = await db.updateTable('api_keys as k').set({ revoked_at: sql<Date>`now()`, revoked_by: user.email })
    .where('k.id', '=', id).where('k.revoked_at', 'is', null).returning(KEY_COLUMNS).executeTakeFirst();
  if (!row) return recordOf(found);
  await recordSecurityEvent(em, {
    kind: 'apiKeyRevoked', userId: user.id, email: user.email, ip,
    detail: { keyId: id, prefix: found.prefix.trim(), name: found.name, ownerId: found.user_id, byAdministrator: user.isAdmin && found.user_id !== user.id },
  });
  return recordOf(row);
}

/** What the door needs of a key to decide a call: the key, whether it is in force, and its owner. */
export interface ApiKeyFacts {
  id: number; prefix: string; name: string; scopes: ApiKeyScope[]; secretHash: Buffer; revoked: boolean; lastUsedAt: Date | null;
  userId: number;
}

/** A key's row by its prefix (unique), with its hash to compare: one indexed read. */
export async function apiKeyByPrefix(runner: SqlRunner, prefix: string): Promise<ApiKeyFacts | null> {
  const row = await pooled(runner).selectFrom('api_keys').select(['id', 'prefix', 'name', 'scopes', 'secret_hash', 'revoked_at', 'last_used_at', 'user_id'])
    .where('prefix', '=', prefix).executeTakeFirst();
  return row ? {
    id: row.id, prefix: row.prefix.trim(), name: row.name, scopes: row.scopes as ApiKeyScope[], secretHash: row.secret_hash,
    revoked: !!row.revoked_at, lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null, userId: row.user_id, // text from the driver
  } : null;
}

/**
 * A call with a key: `last_used_at` and an "API key used" line, at most once per key per API_KEY_USE_RECORD_MS.
 * One statement whose update decides (the row's lock), so however many processes serve the key at once, one of them
 * writes the line for that minute. Skipped without a round trip while the read row says the minute has not passed.
 */
export async function recordApiKeyUse(runner: SqlRunner, key: ApiKeyFacts, caller: { email: string; ip: string; method: string; route: string }): Promise<void> {
  if (key.lastUsedAt && Date.now() - key.lastUsedAt.getTime() < API_KEY_USE_RECORD_MS) return;
  const detail = JSON.stringify({ keyId: key.id, prefix: key.prefix, name: key.name, method: caller.method, route: caller.route });
  await sql`with touched as (
      update "api_keys" set "last_used_at" = now()
      where "id" = ${key.id} and ("last_used_at" is null or "last_used_at" <= now() - ${API_KEY_USE_RECORD_MS} * interval '1 millisecond')
      returning "id")
    insert into "security_events" ("kind", "user_id", "email", "ip", "detail")
    select ${'apiKeyUsed'}, ${key.userId}, ${caller.email.toLowerCase()}, ${caller.ip}, ${detail}::jsonb from touched`.execute(pooled(runner));
}

/** A refusal's line is written at most once a minute per (key or address, reason): counted in the shared windows. */
const REFUSAL_LINE_WINDOW = { max: 1, windowMs: API_KEY_USE_RECORD_MS };

/**
 * A refused call with a key, in the security log: a malformed or unknown key (per client address), a revoked key, a
 * scope the key lacks, a key over its limit (per key). At most one line per subject and reason a minute, decided in
 * PostgreSQL (the shared fixed-window counters), so a script that keeps calling cannot flood the log.
 */
export async function recordApiKeyRefusal(em: EntityManager, refusal: {
  reason: ApiKeyRefusal; key: ApiKeyFacts | null; ownerEmail?: string | null; ip: string; method: string; route: string; status: number;
}): Promise<void> {
  const subject = refusal.key ? `key:${refusal.key.id}` : `ip:${refusal.ip}`;
  if (!(await reserveHit(em, `api-key-refusal:${subject}:${refusal.reason}`, REFUSAL_LINE_WINDOW))) return;
  await recordSecurityEvent(em, {
    kind: 'apiKeyRefused', userId: refusal.key?.userId ?? null, email: refusal.ownerEmail ?? null, ip: refusal.ip,
    detail: {
      reason: refusal.reason, method: refusal.method, route: refusal.route, status: refusal.status,
      ...(refusal.key ? { keyId: refusal.key.id, prefix: refusal.key.prefix, name: refusal.key.name } : {}),
    },
  });
}
