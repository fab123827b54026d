import { Migration } from '@mikro-orm/migrations';

/**
 * `chosen_address_mail_counts`: how many emails the portal sent in the current window to addresses a user chose,
 * one row per user (`user|<kind>|<id>`) and per target address (`address|<kind>|<email>`), a fixed window each
 * (domain/abuse-limits.ts CHOSEN_ADDRESS_MAIL_LIMITS). Logged, unlike the rate-limit counters: a crash must not hand
 * a relay a fresh day.
 */
export class Migration20261127200001_chosen_address_mail extends Migration {

  override name = 'Migration20261127200001_chosen_address_mail';

  override up(): void | Promise<void> {
    this.addSql(`create table "chosen_address_mail_counts" ("key" text primary key, "sent" int not null, "window_ends" timestamptz not null);`);
    this.addSql(`create index "chosen_address_mail_counts_window_ends_index" on "chosen_address_mail_counts" ("window_ends");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "chosen_address_mail_counts";`);
  }
}
