import { Migration } from '@mikro-orm/migrations';

/**
 * Instant certificates (domain/instant-rules.ts): the office's switch, its rules with every saved version, each
 * request's decision, and the hold an administrator (or a revoked instant certificate) puts on a requester.
 *
 * - `instant_settings` has one row (id 1): the office-wide switch, off until an administrator turns it on.
 * - `instant_rules` holds each rule as it stands; `instant_rule_versions` every version saved (the conditions as
 *   react-querybuilder JSON), so a decision names the version it applied and the page shows what it said then.
 *   `problem` is set when a rule could not be evaluated (a field renamed, a value of the wrong type): the rule is
 *   switched off with it, the request goes to a person.
 * - `instant_decisions` holds one row per evaluation, keyed by the workflow's effect key (a retried or replayed
 *   activity finds its row and decides nothing twice). `check_required` rows not yet checked are the
 *   administrators' "Check after issue" list.
 */
export class Migration20261202100001_instant_certificates extends Migration {

  override name = 'Migration20261202100001_instant_certificates';

  override up(): void | Promise<void> {
    this.addSql(`create table "instant_settings" (
      "id" int primary key check ("id" = 1),
      "enabled" boolean not null default false,
      "updated_at" timestamptz not null default now(),
      "updated_by" varchar(255) null
    );`);
    this.addSql(`insert into "instant_settings" ("id", "enabled") values (1, false);`);
    this.addSql(`create table "instant_rules" (
      "id" serial primary key,
      "name" varchar(100) not null,
      "kinds" jsonb not null,
      "conditions" jsonb not null,
      "check_every" int not null default 10 check ("check_every" >= 0),
      "daily_cap" int not null default 50 check ("daily_cap" >= 0),
      "enabled" boolean not null default false,
      "version" int not null default 1,
      "problem" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "updated_by" varchar(255) null
    );`);
    this.addSql(`create table "instant_rule_versions" (
      "rule_id" int not null references "instant_rules" ("id") on delete cascade,
      "version" int not null,
      "name" varchar(100) not null,
      "kinds" jsonb not null,
      "conditions" jsonb not null,
      "check_every" int not null,
      "daily_cap" int not null,
      "saved_at" timestamptz not null default now(),
      "saved_by" varchar(255) null,
      primary key ("rule_id", "version")
    );`);
    this.addSql(`create table "instant_decisions" (
      "id" serial primary key,
      "request_id" int not null references "requests" ("id") on delete cascade,
      "key" varchar(255) not null unique,
      "decided_at" timestamptz not null default now(),
      "outcome" varchar(16) not null check ("outcome" in ('issued', 'stopped')),
      "rule_id" int null references "instant_rules" ("id") on delete set null,
      "rule_version" int null,
      "rule_name" varchar(100) null,
      "stopped_by" text null,
      "check_required" boolean not null default false,
      "checked_at" timestamptz null,
      "checked_by" varchar(255) null
    );`);
    this.addSql(`create index "instant_decisions_request_index" on "instant_decisions" ("request_id", "decided_at" desc);`);
    this.addSql(`create index "instant_decisions_rule_day_index" on "instant_decisions" ("rule_id", "decided_at") where "outcome" = 'issued';`);
    this.addSql(`create index "instant_decisions_to_check_index" on "instant_decisions" ("decided_at") where "check_required" and "checked_at" is null;`);
    this.addSql(`alter table "users" add column "instant_hold_at" timestamptz null, add column "instant_hold_reason" text null;`);
    // A decision reaches open request pages as a live event, as an audit row does (the stop is news to an administrator).
    this.addSql(`create trigger "instant_decisions_notify" after insert on "instant_decisions"
      for each row execute function "notify_request_activity_event"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "users" drop column if exists "instant_hold_at", drop column if exists "instant_hold_reason";`);
    this.addSql(`drop table if exists "instant_decisions";`);
    this.addSql(`drop table if exists "instant_rule_versions";`);
    this.addSql(`drop table if exists "instant_rules";`);
    this.addSql(`drop table if exists "instant_settings";`);
  }
}
