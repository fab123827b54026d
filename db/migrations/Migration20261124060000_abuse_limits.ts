import { Migration } from '@mikro-orm/migrations';

/**
 * Abuse limits shared by every API process.
 *
 * - `rate_limit_counters`: one fixed-window counter per key (route limits, sign-in failures per account, address and
 *   device). UNLOGGED: counters are written on every limited call and are worthless after a crash, so they skip the
 *   write-ahead log; a PostgreSQL crash resets them (the limits start afresh), a restart keeps them.
 * - `uploads`: every upload's bytes, who sent them and when. It counts a user's bytes per day (the upload quota) and
 *   finds uploads no document took up, which the API removes after a day.
 */
export class Migration20261124060000_abuse_limits extends Migration {

  override name = 'Migration20261124060000_abuse_limits';

  override up(): void | Promise<void> {
    this.addSql(`create unlogged table "rate_limit_counters" ("key" text primary key, "hits" int not null, "window_ends" timestamptz not null);`);
    this.addSql(`create index "rate_limit_counters_window_ends_index" on "rate_limit_counters" ("window_ends");`);
    this.addSql(`create table "uploads" ("stored_name" varchar(255) primary key, "user_id" int not null, "request_id" int not null, "size" int not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "uploads_user_created_index" on "uploads" ("user_id", "created_at");`);
    this.addSql(`create index "uploads_created_index" on "uploads" ("created_at");`);
    // Open drafts per requester and messages per author and hour are counted on every create: index both counts.
    this.addSql(`create index if not exists "requests_requester_draft_index" on "requests" ("requester_id") where "status" = 'Draft';`);
    this.addSql(`create index if not exists "discussions_sender_created_index" on "discussions" (lower("sender_email"), "created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "discussions_sender_created_index";`);
    this.addSql(`drop index if exists "requests_requester_draft_index";`);
    this.addSql(`drop table if exists "uploads";`);
    this.addSql(`drop table if exists "rate_limit_counters";`);
  }
}
