import { Migration } from '@mikro-orm/migrations';

/**
 * A live event when an audit row is written (kind `activity`). The workflow stores a letter and
 * sends its email after a status change, each with an audit row (activities/effects), so a page that shows the
 * request learns of them from the stream instead of polling after every save. The payload is the same as the
 * other request events: ids and what the API needs to decide who may hear of it.
 */
export class Migration20261126050000_activity_events extends Migration {

  override name = 'Migration20261126050000_activity_events';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "notify_request_activity_event"() returns trigger language plpgsql as $$
declare
  request_row record;
begin
  select "requester_id", "email" into request_row from "requests" where "id" = new."request_id";
  perform pg_notify('request_events', json_build_object(
    'kind', 'activity', 'requestId', new."request_id", 'requesterId', request_row."requester_id", 'email', request_row."email")::text);
  return null;
end $$;`);
    this.addSql(`drop trigger if exists "request_activity_notify_event" on "request_activity";`);
    this.addSql(`create trigger "request_activity_notify_event" after insert on "request_activity" for each row execute function "notify_request_activity_event"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "request_activity_notify_event" on "request_activity";`);
    this.addSql(`drop function if exists "notify_request_activity_event"();`);
  }

}
