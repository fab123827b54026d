/**
 * Typed SQL: every statement the ORM's entity calls do not cover is written with Kysely, bound to an EntityManager
 * through MikroORM's own integration (`em.getKysely()`), so it runs on that manager's transaction when it has one and
 * on the pool otherwise. Table and column types come from our entity definitions (MikroORM infers them); tables
 * without an entity (counters, roll-ups, slots) are described by hand below. Values are named where they are used —
 * the query builder's arguments, or `${value}` inside Kysely's `sql` template, sent as bound parameters — and result
 * rows are typed, never positional `?` lists with a cast on the result.
 *
 * Why Kysely: MikroORM's query builder cannot say the statements this code relies on (CTE chains that write and
 * read in one round trip, `on conflict … where` upserts, advisory locks), and a home-made helper would rewrite what
 * Kysely already does; MikroORM ships the integration and depends on Kysely itself.
 */
import type { EntityManager, InferKyselyDB } from '@mikro-orm/postgresql';
import { DummyDriver, Kysely, type ColumnType, type Generated, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type RawBuilder } from 'kysely';
import type pg from 'pg';
import type { ALL_ENTITIES } from './entities';
import type { RosterRowStatus } from '../domain/rosters';
import type { RenewalAnswer, RenewalItemState, RenewalMode, RenewalRunState } from '../domain/renewals';

/** The tables of our entities, with their database column names. */
type EntityTables = InferKyselyDB<(typeof ALL_ENTITIES)[number]>;

/** Tables no entity maps (see their migrations). */
interface OtherTables {
  rate_limit_counters: { key: string; hits: number; window_ends: Date };
  chosen_address_mail_counts: { key: string; sent: number; window_ends: Date };
  upload_slots: { id: string; user_id: number; bytes: string; expires_at: Date };
  // instant certificates (Migration20261202100001)
  instant_settings: { id: number; enabled: Generated<boolean>; updated_at: Generated<Date>; updated_by: string | null };
  instant_rules: {
    id: Generated<number>; name: string; kinds: Json<string[]>; conditions: Json<unknown>; check_every: number; daily_cap: number;
    enabled: Generated<boolean>; version: Generated<number>; problem: string | null; created_at: Generated<Date>; updated_at: Generated<Date>;
    updated_by: string | null;
  };
  instant_rule_versions: {
    rule_id: number; version: number; name: string; kinds: Json<string[]>; conditions: Json<unknown>; check_every: number; daily_cap: number;
    saved_at: Generated<Date>; saved_by: string | null;
  };
  instant_decisions: {
    id: Generated<number>; request_id: number; key: string; decided_at: Generated<Date>; outcome: 'issued' | 'stopped';
    rule_id: number | null; rule_version: number | null; rule_name: string | null; stopped_by: string | null;
    check_required: Generated<boolean>; checked_at: Date | null; checked_by: string | null;
  };
  // the daily digest of instant issues (Migration20261202100003)
  instant_digests: { key: string; day: string; issued: number; sent_to: string; sent_at: Generated<Date> };
  // rosters uploaded in bulk (Migration20261203490001)
  rosters: { id: Generated<number>; owner_id: number; kind: string; file_name: string; created_at: Generated<Date>; submit_requested_at: Date | null };
  roster_rows: {
    id: Generated<number>; roster_id: number; line: number; values: Json<Record<string, string>>; errors: Json<Record<string, string>>;
    status: RosterRowStatus; request_id: number | null; outcome: string | null; updated_at: Generated<Date>;
  };
  // API keys of external accounts (Migration20261203400001)
  api_keys: {
    id: Generated<number>; user_id: number; name: string; prefix: string; secret_hash: Buffer; scopes: string[];
    created_at: Generated<Date>; created_by: string; last_used_at: Date | null; revoked_at: Date | null; revoked_by: string | null;
  };
  // webhooks (Migration20261203410001)
  webhook_endpoints: {
    id: Generated<number>; owner_id: number; url: string; events: string[]; description: string | null; secret: string;
    previous_secret: string | null; previous_secret_until: Date | null; failing_since: Date | null; disabled_at: Date | null;
    disabled_reason: string | null; disabled_emailed_at: Date | null; created_at: Generated<Date>; updated_at: Generated<Date>;
  };
  webhook_deliveries: {
    id: Generated<string>; endpoint_id: number; event_type: string; request_id: number; data: Json<Record<string, unknown>>;
    resend_of: string | null; status: Generated<'pending' | 'delivered' | 'failed'>; attempts: Generated<number>;
    last_status_code: number | null; last_error: string | null; last_attempt_at: Date | null; delivered_at: Date | null;
    workflow_started_at: Date | null; created_at: Generated<Date>;
  };
  // renewal season (Migration20261204100001)
  renewal_runs: {
    id: Generated<number>; policy_year_id: number; mode: RenewalMode; answer_by: string | null; coverage_from: string; coverage_to: string;
    state: RenewalRunState; workflow_id: string; created_by: string; created_by_user_id: number | null; created_at: Generated<Date>; finished_at: Date | null;
  };
  renewal_items: {
    id: Generated<number>; run_id: number; request_id: number; issued_letter_id: number | null; reason: string; state: RenewalItemState;
    answer: RenewalAnswer | null; answered_at: Date | null; answer_token_hash: Buffer | null; effect_key: string | null; outcome: string | null;
    updated_at: Generated<Date>;
  };
  request_renewals: { request_id: number; policy_year_id: number; run_id: number | null; effect_key: string; created_at: Generated<Date> };
  webhook_attempts: {
    id: Generated<string>; delivery_id: string; attempt: number; at: Date; duration_ms: number; status_code: number | null; error: string | null;
  };
}

/** A jsonb column: read as the value, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;

export type Database = EntityTables & OtherTables;

/** Kysely for `em`: inside `em`'s transaction when it has one. */
export const kysely = (em: Pick<EntityManager, 'getKysely'>): Kysely<Database> => em.getKysely<Database>();

/**
 * Kysely on the pool, outside any transaction `em` (or the async context) has open: for writes that must stay when
 * the caller's work is rolled back, and side queries that must not wait for its locks.
 */
export const pooled = (em: Pick<EntityManager, 'getConnection'>): Kysely<Database> => em.getConnection().getClient<Database>();

/**
 * Kysely without a connection, that only compiles: statements for a plain `pg` client (database administration before
 * the ORM exists; the connection a COPY stream needs) are written with the same `sql` template as every other.
 */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Runs a `sql` template on a plain pg client, its values bound as Kysely compiled them. */
export async function queryOn<R>(client: Pick<pg.ClientBase, 'query'>, statement: RawBuilder<R>): Promise<{ rows: R[]; rowCount: number | null }> {
  const { sql: text, parameters } = statement.compile(compiler);
  // The query config form: the text and values come from the compiler, never from a hand-numbered list.
  const { rows, rowCount } = await client.query({ text, values: [...parameters] });
  return { rows: rows as R[], rowCount };
}

/**
 * The text of a statement whose values are all written into it (`sql.lit`, quoted by Kysely), for what takes no bound
 * values: the query of a COPY.
 */
export function inlineStatementText(statement: RawBuilder<unknown>): string {
  const { sql: text, parameters } = statement.compile(compiler);
  if (parameters.length) throw new Error('This statement binds values; write them with sql.lit for a statement that takes none');
  return text;
}
