import { Migration } from '@mikro-orm/migrations';

/**
 * The security log's refusals and filters.
 *
 * - Refusals (`accessRefused`) are bounded: at most one line per (user or address, route, minute). The minute is
 *   written in `detail.minute` and a partial unique index over it lets `insert … on conflict` decide in PostgreSQL,
 *   atomically for every API process; a repeat within the minute only raises `detail.repeats` on that line. A flood
 *   of refused calls thus grows the table by at most one line per caller and route a minute (and a year at most).
 * - The page filters by part of an address: a trigram index keeps that contains-search off a full scan.
 */
export class Migration20261124040000_security_log_refusals extends Migration {

  override name = 'Migration20261124040000_security_log_refusals';

  override up(): void | Promise<void> {
    this.addSql(`create unique index "security_events_refusal_minute_unique" on "security_events" (coalesce("user_id", 0), coalesce("ip", ''), ("detail"->>'route'), ("detail"->>'minute')) where "kind" = 'accessRefused';`);
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create index "security_events_email_trgm_index" on "security_events" using gin ("email" gin_trgm_ops);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "security_events_email_trgm_index";`);
    this.addSql(`drop index if exists "security_events_refusal_minute_unique";`);
  }
}
