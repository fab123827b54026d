import { Migration } from '@mikro-orm/migrations';

/**
 * Rosters uploaded in bulk (services/rosters/): one row per uploaded file and one per line of it, with the line's
 * values as typed, its errors in the spec's words, its state and the draft it became. Kept here (not in a process's
 * memory) so a reload of the page, or another API process, sees the same roster; the submit of all its rows claims
 * each row here, so two clicks (or two processes) never submit one row twice.
 */
export class Migration20261203490001_rosters extends Migration {

  override name = 'Migration20261203490001_rosters';

  override up(): void | Promise<void> {
    this.addSql(`create table "rosters" (
      "id" serial primary key,
      "owner_id" int not null references "users" ("id") on delete cascade,
      "kind" varchar(40) not null,
      "file_name" varchar(255) not null,
      "created_at" timestamptz not null default now(),
      "submit_requested_at" timestamptz null
    );`);
    this.addSql(`create index "rosters_owner_index" on "rosters" ("owner_id", "id" desc);`);
    this.addSql(`create table "roster_rows" (
      "id" serial primary key,
      "roster_id" int not null references "rosters" ("id") on delete cascade,
      "line" int not null,
      "values" jsonb not null,
      "errors" jsonb not null default '{}',
      "status" varchar(16) not null check ("status" in ('invalid', 'valid', 'draft', 'queued', 'submitting', 'submitted', 'refused')),
      "request_id" int null references "requests" ("id") on delete set null,
      "outcome" text null,
      "updated_at" timestamptz not null default now(),
      unique ("roster_id", "line")
    );`);
    // The submit of all claims rows of a roster by state; the progress counts them by state.
    this.addSql(`create index "roster_rows_status_index" on "roster_rows" ("roster_id", "status");`);
    this.addSql(`create index "roster_rows_request_index" on "roster_rows" ("request_id") where "request_id" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "roster_rows";`);
    this.addSql(`drop table if exists "rosters";`);
  }
}
