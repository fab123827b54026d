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
import type { Orm } from '../../../db/orm';

type Run = { affectedRows?: number; rowCount?: number };
const changed = (result: unknown) => ((result as Run).affectedRows ?? (result as Run).rowCount ?? 0);

/** Removes the message ids that have expired; returns how many. */
export async function pruneExpiredSamlMessageIds(em: EntityManager): Promise<number> {
  return changed(await em.getConnection().execute('delete from saml_message_ids where expires_at < now()', [], 'run'));
}

export class SamlMessageStore {
  constructor(private readonly orm: Orm) {}

  private connection() {
    return this.orm.em.fork().getConnection();
  }

  /** node-saml's cache of AuthnRequest ids, each valid for `lifetimeMs`. */
  requestCache(lifetimeMs: number): CacheProvider {
    const key = (id: string) => `request:${id}`;
    return {
      saveAsync: async (id, value): Promise<CacheItem | null> => {
        const now = new Date();
        const inserted = await this.connection().execute(
          'insert into saml_message_ids (key, value, created_at, expires_at) values (?, ?, ?, ?) on conflict do nothing',
          [key(id), value, now, new Date(now.getTime() + lifetimeMs)], 'run',
        );
        return changed(inserted) === 1 ? { value, createdAt: now.getTime() } : null;
      },
      getAsync: async (id) => {
        const rows = await this.connection().execute<{ value: string }[]>(
          'select value from saml_message_ids where key = ? and expires_at > now()', [key(id)], 'all',
        );
        return rows[0]?.value ?? null;
      },
      removeAsync: async (id) => {
        if (!id) return null;
        const rows = await this.connection().execute<{ value: string }[]>(
          'delete from saml_message_ids where key = ? returning value', [key(id)], 'all',
        );
        return rows[0]?.value ?? null;
      },
    };
  }

  /** True the first time an assertion id is claimed; false when it was accepted before (a replay). */
  async claimAssertion(issuer: string, assertionId: string, expiresAt: Date): Promise<boolean> {
    const connection = this.connection();
    await connection.execute('delete from saml_message_ids where expires_at < now()', [], 'run');
    const inserted = await connection.execute(
      'insert into saml_message_ids (key, value, created_at, expires_at) values (?, ?, now(), ?) on conflict do nothing',
      [`assertion:${issuer}:${assertionId}`.slice(0, 255), issuer.slice(0, 255), expiresAt], 'run',
    );
    return changed(inserted) === 1;
  }
}
