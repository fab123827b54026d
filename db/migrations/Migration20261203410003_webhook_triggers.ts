import { Migration } from '@mikro-orm/migrations';

/**
 * The events webhooks report, taken where the request workflow already records them (its code unchanged): a
 * submission or change of status (an audit row with `status_to`), a letter issued (`issued_letters.issued_at` set)
 * and a discussion message. Each runs `webhook_deliveries_fan_out` (db/sql-functions.ts, Migration20261203410002).
 */
export class Migration20261203410003_webhook_triggers extends Migration {

  override name = 'Migration20261203410003_webhook_triggers';

  override up(): void | Promise<void> {
    this.addSql(`create trigger "request_activity_webhooks" after insert on "request_activity"
      for each row when (new."status_to" is not null) execute function "webhook_deliveries_fan_out"();`);
    this.addSql(`create trigger "issued_letters_webhooks" after insert or update of "issued_at" on "issued_letters"
      for each row when (new."issued_at" is not null) execute function "webhook_deliveries_fan_out"();`);
    this.addSql(`create trigger "discussions_webhooks" after insert on "discussions"
      for each row execute function "webhook_deliveries_fan_out"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "discussions_webhooks" on "discussions";`);
    this.addSql(`drop trigger if exists "issued_letters_webhooks" on "issued_letters";`);
    this.addSql(`drop trigger if exists "request_activity_webhooks" on "request_activity";`);
  }
}
