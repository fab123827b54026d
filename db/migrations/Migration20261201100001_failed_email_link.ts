import { Migration } from '@mikro-orm/migrations';

/**
 * What an audit row linked to an effect says of it is a column, `request_activity.effect_outcome`, instead of the end
 * of its idempotency key (domain/audit-kinds.ts EFFECT_OUTCOME):
 * - `failed`: the effect's last attempt failed, nobody got the email (the row's key ended in `:failed`). The email
 *   problems list joins the failed effect to this row (its Send again), through the partial index below.
 * - `refused`: the email went out but the mail server refused some recipients for good (key `…:refused`).
 *
 * Only "Email Failed" rows carry `effect_id` (activities/effects/send-email.ts writes both kinds). A check keeps the two
 * columns together, so every writer of a linked row must say what it is. The index on every linked row gives way to
 * one on the failed ones, the only ones a list reads by effect.
 *
 * The outcomes are the ones of today: a migration keeps the list it was written with.
 */
export class Migration20261201100001_failed_email_link extends Migration {

  override name = 'Migration20261201100001_failed_email_link';

  override up(): void | Promise<void> {
    this.addSql(`alter table "request_activity" add column "effect_outcome" varchar(16) null;`);
    this.addSql(`update "request_activity" set "effect_outcome" = case when "idempotency_key" like '%:failed' then 'failed' else 'refused' end
      where "effect_id" is not null;`);
    this.addSql(`alter table "request_activity" add constraint "request_activity_effect_outcome_check"
      check (case when "effect_id" is null then "effect_outcome" is null else coalesce("effect_outcome" in ('failed', 'refused'), false) end);`);
    this.addSql(`create index "request_activity_failed_effect_index" on "request_activity" ("effect_id") where "effect_outcome" = 'failed';`);
    this.addSql(`drop index if exists "request_activity_effect_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index if not exists "request_activity_effect_index" on "request_activity" ("effect_id") where "effect_id" is not null;`);
    this.addSql(`drop index if exists "request_activity_failed_effect_index";`);
    this.addSql(`alter table "request_activity" drop constraint if exists "request_activity_effect_outcome_check";`);
    this.addSql(`alter table "request_activity" drop column if exists "effect_outcome";`);
  }
}
