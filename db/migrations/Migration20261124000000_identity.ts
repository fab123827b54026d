import { Migration } from '@mikro-orm/migrations';

/**
 * Identity you can trust.
 *
 * - `users.email_confirmed_at`: when the user proved they own `email` (a confirmation link, or single sign-on, which
 *   the university vouches for). Null = unconfirmed: the account files and follows its own requests but gets nothing
 *   granted by email (administrator rights, requests that merely name the address).
 *   Existing rows: internal users (single sign-on, and the development accounts) are confirmed; the development
 *   external requester too; every other external account is unconfirmed.
 * - `users.pending_email`: an address change waiting for its confirmation link; `email` stays in force until then.
 * - One email per kind of account: single sign-on may create an internal user apart from an unconfirmed external
 *   account with the same address (it never takes that account over), so uniqueness is per (address, external).
 * - `email_confirmations`: confirmation links, like password resets (only the secret's hash stored, single use,
 *   24 hours), each for one address of one user.
 * - `security_events`: the security log (sign-ins, refusals, admin-list changes, …), kept a year.
 */
export class Migration20261124000000_identity extends Migration {

  override name = 'Migration20261124000000_identity';

  override up(): void | Promise<void> {
    this.addSql(`alter table "users" add column "email_confirmed_at" timestamptz null, add column "pending_email" varchar(255) null;`);
    this.addSql(`update "users" set "email_confirmed_at" = coalesce("last_login", "created_at") where not "is_external" or "email" = 'requester@hospital.example';`);
    this.addSql(`alter table "users" drop constraint if exists "users_email_unique";`);
    this.addSql(`drop index if exists "users_email_lower_unique";`);
    this.addSql(`create unique index "users_email_kind_unique" on "users" (lower("email"), "is_external");`);
    this.addSql(`create table "email_confirmations" ("id" uuid not null primary key, "created_at" timestamptz not null, "user_id" int not null, "email" varchar(255) not null, "secret_hash" varchar(255) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "emailed_at" timestamptz null, "notice_emailed_at" timestamptz null);`);
    this.addSql(`create index "email_confirmations_user_id_index" on "email_confirmations" ("user_id");`);
    this.addSql(`create table "security_events" ("id" bigserial primary key, "at" timestamptz not null default now(), "kind" varchar(64) not null, "user_id" int null, "email" varchar(255) null, "ip" varchar(64) null, "detail" jsonb not null default '{}');`);
    this.addSql(`create index "security_events_at_index" on "security_events" ("at" desc, "id" desc);`);
    this.addSql(`create index "security_events_kind_at_index" on "security_events" ("kind", "at" desc, "id" desc);`);
    this.addSql(`create index "security_events_user_at_index" on "security_events" ("user_id", "at" desc, "id" desc);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "security_events" cascade;`);
    this.addSql(`drop table if exists "email_confirmations" cascade;`);
    this.addSql(`drop index if exists "users_email_kind_unique";`);
    this.addSql(`create unique index if not exists "users_email_lower_unique" on "users" (lower("email"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`alter table "users" drop column "pending_email", drop column "email_confirmed_at";`);
  }
}
