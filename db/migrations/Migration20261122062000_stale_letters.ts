import { Migration } from '@mikro-orm/migrations';

/**
 * Stale letters: when a CS-STARS upload adds or changes a claim of a clinician within the period of
 * an issued claim-history letter, the request is flagged "letter may be out of date" until a new letter is stored.
 * The partial index keeps the dashboard's list of flagged requests cheap however many requests there are.
 */
export class Migration20261122062000_stale_letters extends Migration {

  override name = 'Migration20261122062000_stale_letters';

  override up(): void | Promise<void> {
    this.addSql(`alter table "requests" add column "letter_stale_since" timestamptz null;`);
    this.addSql(`create index "requests_letter_stale_since_index" on "requests" ("letter_stale_since") where "letter_stale_since" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "requests_letter_stale_since_index";`);
    this.addSql(`alter table "requests" drop column if exists "letter_stale_since";`);
  }
}
