import { Migration } from '@mikro-orm/migrations';

/**
 * Only a stopped instant decision notifies open request pages (news to an administrator); an issued one needs no
 * event of its own: the approval that follows is a status change, which notifies. Saves a NOTIFY in the decision's
 * commit on the instant path.
 */
export class Migration20261202100004_instant_stop_notify extends Migration {

  override name = 'Migration20261202100004_instant_stop_notify';

  override up(): void | Promise<void> {
    this.addSql(`drop trigger if exists "instant_decisions_notify" on "instant_decisions";`);
    this.addSql(`create trigger "instant_decisions_notify" after insert on "instant_decisions"
      for each row when (new."outcome" = 'stopped') execute function "notify_request_activity_event"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "instant_decisions_notify" on "instant_decisions";`);
    this.addSql(`create trigger "instant_decisions_notify" after insert on "instant_decisions"
      for each row execute function "notify_request_activity_event"();`);
  }
}
