import { Migration } from '@mikro-orm/migrations';

/**
 * API keys of external accounts (domain/api-keys.ts): the SHA-256 of the key, never the key; the prefix finds the row
 * (unique) and names the key in lists and the log. Revoked keys stay (listed as revoked, their lines in the log keep
 * meaning); `last_used_at` is written at most once a minute per key.
 */
export class Migration20261203400001_api_keys extends Migration {

  override name = 'Migration20261203400001_api_keys';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_keys" (
      "id" serial primary key,
      "user_id" int not null references "users" ("id") on delete cascade,
      "name" varchar(80) not null,
      "prefix" char(8) not null unique,
      "secret_hash" bytea not null check (length("secret_hash") = 32),
      "scopes" text[] not null check (cardinality("scopes") > 0),
      "created_at" timestamptz not null default now(),
      "created_by" varchar(255) not null,
      "last_used_at" timestamptz null,
      "revoked_at" timestamptz null,
      "revoked_by" varchar(255) null
    );`);
    this.addSql(`create index "api_keys_user_id_index" on "api_keys" ("user_id", "created_at" desc);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_keys";`);
  }
}
