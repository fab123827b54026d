import { Migration } from '@mikro-orm/migrations';

/**
 * Renewal season (domain/renewals.ts): a request's renewal mark, the day a current certificate's coverage ends
 * (computed from the facts it was issued with, so the Renewals page finds the certificates ending with a year by an
 * index, not by reading every letter's JSON), the office's runs with one row per certificate, and the one row per
 * request and policy year that makes a renewal happen once, whichever run (or retry) asks.
 */
export class Migration20261204100001_renewals extends Migration {

  override name = 'Migration20261204100001_renewals';

  override up(): void | Promise<void> {
    this.addSql(`alter table "requests" add column "renewal_preference" varchar(8) null check ("renewal_preference" in ('auto', 'never'));`);
    // The end of the last policy year the certificate shows (its coverage ends with that year, whatever the dates of
    // the activity it covers; the renewal rules judge those). Immutable: it reads only its argument, and the facts
    // are written once, when the letter's code is reserved.
    this.addSql(`create function issued_letter_coverage_end(facts jsonb) returns date language sql immutable as $$
      select coalesce(
        (select max(nullif(left(p->>'expiration', 10), '')::date) from jsonb_array_elements(coalesce(facts->'policies', '[]'::jsonb)) p),
        nullif(left(facts->'coveragePeriod'->>'to', 10), '')::date
      )
    $$;`);
    this.addSql(`alter table "issued_letters" add column "coverage_ends_on" date generated always as (issued_letter_coverage_end("facts")) stored;`);
    this.addSql(`create index "issued_letters_current_certificate_end_index" on "issued_letters" ("coverage_ends_on", "request_id")
      where "letter_kind" = 'certificate' and "issued_at" is not null and "superseded_at" is null and "revoked_at" is null;`);

    this.addSql(`create table "renewal_runs" (
      "id" serial primary key,
      "policy_year_id" int not null references "policies" ("id") on delete cascade,
      "mode" varchar(8) not null check ("mode" in ('renew', 'ask')),
      "answer_by" date null,
      "coverage_from" date not null,
      "coverage_to" date not null,
      "state" varchar(12) not null check ("state" in ('asking', 'running', 'paused', 'finished', 'cancelled')),
      "workflow_id" varchar(80) not null unique,
      "created_by" varchar(255) not null,
      "created_by_user_id" int null references "users" ("id") on delete set null,
      "created_at" timestamptz not null default now(),
      "finished_at" timestamptz null,
      check (("mode" = 'ask') = ("answer_by" is not null))
    );`);
    this.addSql(`create index "renewal_runs_created_index" on "renewal_runs" ("id" desc);`);
    this.addSql(`create table "renewal_items" (
      "id" serial primary key,
      "run_id" int not null references "renewal_runs" ("id") on delete cascade,
      "request_id" int not null references "requests" ("id") on delete cascade,
      "issued_letter_id" int null references "issued_letters" ("id") on delete set null,
      "reason" text not null,
      "state" varchar(12) not null check ("state" in ('asked', 'pending', 'renewed', 'failed', 'declined', 'unanswered', 'skipped', 'cancelled')),
      "answer" varchar(3) null check ("answer" in ('yes', 'no')),
      "answered_at" timestamptz null,
      "answer_token_hash" bytea null unique,
      "effect_key" varchar(255) null,
      "outcome" text null,
      "updated_at" timestamptz not null default now(),
      unique ("run_id", "request_id")
    );`);
    // The run takes its items in id order by state; the progress counts them by state.
    this.addSql(`create index "renewal_items_run_state_index" on "renewal_items" ("run_id", "state", "id");`);
    this.addSql(`create index "renewal_items_request_index" on "renewal_items" ("request_id");`);
    this.addSql(`create table "request_renewals" (
      "request_id" int not null references "requests" ("id") on delete cascade,
      "policy_year_id" int not null references "policies" ("id") on delete cascade,
      "run_id" int null references "renewal_runs" ("id") on delete set null,
      "effect_key" varchar(255) not null unique,
      "created_at" timestamptz not null default now(),
      primary key ("request_id", "policy_year_id")
    );`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "request_renewals";`);
    this.addSql(`drop table if exists "renewal_items";`);
    this.addSql(`drop table if exists "renewal_runs";`);
    this.addSql(`drop index if exists "issued_letters_current_certificate_end_index";`);
    this.addSql(`alter table "issued_letters" drop column if exists "coverage_ends_on";`);
    this.addSql(`drop function if exists issued_letter_coverage_end(jsonb);`);
    this.addSql(`alter table "requests" drop column if exists "renewal_preference";`);
  }
}
