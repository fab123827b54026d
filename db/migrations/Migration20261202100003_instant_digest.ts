import { Migration } from '@mikro-orm/migrations';

/**
 * The office's daily digest of instant certificates (domain/instant-digest.ts): one row per day whose digest went out,
 * keyed `instant-digest:<yyyy-mm-dd>`. The sending activity inserts the row and sends in one transaction, so a second
 * run of the same day (a retried activity, a schedule started twice) waits on the first's row and then finds it.
 */
export class Migration20261202100003_instant_digest extends Migration {

  override name = 'Migration20261202100003_instant_digest';

  override up(): void | Promise<void> {
    this.addSql(`create table "instant_digests" (
      "key" varchar(64) primary key,
      "day" date not null,
      "issued" int not null check ("issued" > 0),
      "sent_to" varchar(255) not null,
      "sent_at" timestamptz not null default now()
    );`);
    // The digest reads one office day of issues: decisions by time, issued ones only.
    this.addSql(`create index "instant_decisions_issued_at_index" on "instant_decisions" ("decided_at") where "outcome" = 'issued';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "instant_decisions_issued_at_index";`);
    this.addSql(`drop table if exists "instant_digests";`);
  }
}
