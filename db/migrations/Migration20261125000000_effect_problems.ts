import { Migration } from '@mikro-orm/migrations';

/**
 * Emails and letters that did not go out: the administrators' list, the dashboard count and the
 * health check's oldest pending effect read only the effects not sent, a small part of request_effects (partial
 * indexes: they stay small however many requests there are). A failed email's audit row and the effect that sends it
 * again are found by their links.
 */
export class Migration20261125000000_effect_problems extends Migration {

  override name = 'Migration20261125000000_effect_problems';

  override up(): void | Promise<void> {
    this.addSql(`create index if not exists "request_effects_pending_created_index" on "request_effects" ("created_at") where "state" = 'pending';`);
    this.addSql(`create index if not exists "request_effects_failed_at_index" on "request_effects" ("failed_at") where "state" = 'failed';`);
    this.addSql(`create index if not exists "request_effects_retry_of_index" on "request_effects" ("retry_of") where "retry_of" is not null;`);
    this.addSql(`create index if not exists "request_activity_effect_index" on "request_activity" ("effect_id") where "effect_id" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "request_activity_effect_index";`);
    this.addSql(`drop index if exists "request_effects_retry_of_index";`);
    this.addSql(`drop index if exists "request_effects_failed_at_index";`);
    this.addSql(`drop index if exists "request_effects_pending_created_index";`);
  }
}
