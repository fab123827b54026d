/**
 * SAML message ids in PostgreSQL (table saml_message_ids), so every API process agrees on them:
 * - node-saml's CacheProvider for the AuthnRequest ids we sent (validateInResponseTo 'always': an answer must name
 *   a request this portal made, and node-saml removes the id once the answer is used);
 * - `claimAssertion`: an accepted assertion's id is inserted once (insert-or-nothing); a second POST of the same
 *   answer, even racing the first on another process, finds it and is refused as replayed.
 * Rows are kept until they expire; housekeeping (api/plugins/housekeeping.ts) removes expired ones hourly, since
 * anyone may start sign-ins (each saves a request id) that never come back.
 */
import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type Kysely } from 'kysely';
import { kysely, pooled, type Database } from '../../../db/kysely';
import type { Orm } from '../../../db/orm';

const removeExpired = (db: Kysely<Database>) => db.deleteFrom('saml_message_ids').where('expires_at', '<', sql<Date>`now()`).executeTakeFirst();

/** Removes the message ids that have expired (on the pool, outside the housekeeping's transaction); returns how many. */
export async function pruneExpiredSamlMessageIds(em: EntityManager): Promise<number> {
  return Number((await removeExpired(pooled(em))).numDeletedRows);
}

export class SamlMessageStore {
  constructor(private readonly orm: Orm) {}

  private db() {
    return kysely(this.orm.em.fork());
  }

  /** node-saml's cache of AuthnRequest ids, each valid for `lifetimeMs`. */
  requestCache(lifetimeMs: number): CacheProvider {
    const key = (id: string) => `request:${id}`;
    return {
      saveAsync: async (id, value): Promise<CacheItem | null> => {
        const now = new Date();
        const inserted = await this.db().insertInto('saml_message_ids')
          .values({ key: key(id), value, created_at: now, expires_at: new Date(now.getTime() + lifetimeMs) })
          .onConflict((conflict) => conflict.doNothing()).executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? { value, createdAt: now.getTime() } : null;
      },
      getAsync: async (id) => {
        const row = await this.db().selectFrom('saml_message_ids').select('value')
          .where('key', '=', key(id)).where('expires_at', '>', sql<Date>`now()`).executeTakeFirst();
        return row?.value ?? null;
      },
      removeAsync: async (id) => {
        if (!id) return null;
        const row = await this.db().deleteFrom('saml_message_ids').where('key', '=', key(id)).returning('value').executeTakeFirst();
        return row?.value ?? null;
      },
    };
  }

  /** True the first time an assertion id is claimed; false when it was accepted before (a replay). */
  async claimAssertion(issuer: string, assertionId: string, expiresAt: Date): Promise<boolean> {
    const db = this.db();
    await removeExpired(db);
    const inserted = await db.insertInto('saml_message_ids')
      .values({ key: `assertion:${issuer}:${assertionId}`.slice(0, 255), value: issuer.slice(0, 255), created_at: sql<Date>`now()`, expires_at: expiresAt })
      .onConflict((conflict) => conflict.doNothing()).executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
}
