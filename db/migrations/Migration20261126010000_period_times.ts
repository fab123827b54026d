import { Migration } from '@mikro-orm/migrations';

/**
 * Times of day for event and rental periods (spec 2 §9.1 time picker, 30 minutes): `HH:mm`
 * wall-clock strings, null for every request stored before (their periods stay whole days).
 */
export class Migration20261126010000_period_times extends Migration {

  override name = 'Migration20261126010000_period_times';

  override up(): void | Promise<void> {
    this.addSql(`alter table "requests" add column if not exists "rental_start_time" varchar(255) null, add column if not exists "rental_end_time" varchar(255) null, add column if not exists "event_start_time" varchar(255) null, add column if not exists "event_end_time" varchar(255) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "requests" drop column if exists "rental_start_time", drop column if exists "rental_end_time", drop column if exists "event_start_time", drop column if exists "event_end_time";`);
  }
}
