import { Migration } from '@mikro-orm/migrations';

/**
 * Accounts: a session version per user (logout and password changes end every earlier token), password
 * reset tokens stored hashed (single use, expiring), emails unique case-insensitively, redeemed
 * ALTCHA challenges (a captcha solution is accepted once).
 */
export class Migration20261122041500_accounts extends Migration {

  override name = 'Migration20261122041500_accounts';

  override up(): void | Promise<void> {
    this.addSql(`alter table "users" add column "session_version" int not null default 0;`);
    this.addSql(`create unique index if not exists "users_email_lower_unique" on "users" (lower("email"));`);
    this.addSql(`create table "password_resets" ("id" uuid not null primary key, "created_at" timestamptz not null, "user_id" int not null, "secret_hash" varchar(255) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "emailed_at" timestamptz null);`);
    this.addSql(`create index "password_resets_user_id_index" on "password_resets" ("user_id");`);
    this.addSql(`create table "used_challenges" ("signature" varchar(255) not null primary key, "expires_at" timestamptz not null);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "used_challenges" cascade;`);
    this.addSql(`drop table if exists "password_resets" cascade;`);
    this.addSql(`drop index if exists "users_email_lower_unique";`);
    this.addSql(`alter table "users" drop column "session_version";`);
  }
}
