import { Migration } from '@mikro-orm/migrations';

/**
 * Requests that wake by themselves, and live dashboards.
 * - `requests.status_changed_at`: when the request entered its status, kept by a trigger on every path that writes
 *   the status (workflow activities of every version, imports). A wake-up only counts a change of the world made
 *   after the request started waiting (domain/wake-ups.ts).
 * - `request_events`: a NOTIFY for a new request, a status change and a new discussion message, whoever made it.
 *   The payload holds ids (and what the API needs to decide who may hear of it); the API passes on ids only.
 */
export class Migration20261122064000_wake_ups_and_live_events extends Migration {

  override name = 'Migration20261122064000_wake_ups_and_live_events';

  override up(): void | Promise<void> {
    this.addSql(`alter table "requests" add column if not exists "status_changed_at" timestamptz null;`);
    this.addSql(`update "requests" r set "status_changed_at" = coalesce((select max(a."date") from "request_activity" a where a."request_id" = r."id" and a."activity_type" in ('Status Change', 'Submission')), r."updated_at") where r."status_changed_at" is null;`);
    this.addSql(`create or replace function "requests_stamp_status_change"() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' or new."status" is distinct from old."status" then
    new."status_changed_at" := clock_timestamp();
  end if;
  return new;
end $$;`);
    this.addSql(`drop trigger if exists "requests_stamp_status_change" on "requests";`);
    this.addSql(`create trigger "requests_stamp_status_change" before insert or update of "status" on "requests" for each row execute function "requests_stamp_status_change"();`);

    this.addSql(`create or replace function "notify_request_event"() returns trigger language plpgsql as $$
declare
  request_row record;
begin
  if tg_table_name = 'requests' then
    if tg_op = 'UPDATE' and new."status" is not distinct from old."status" then return null; end if;
    perform pg_notify('request_events', json_build_object(
      'kind', case when tg_op = 'INSERT' then 'created' else 'status' end,
      'requestId', new."id", 'requesterId', new."requester_id", 'email', new."email")::text);
  else
    select "requester_id", "email" into request_row from "requests" where "id" = new."request_id";
    perform pg_notify('request_events', json_build_object(
      'kind', 'message', 'requestId', new."request_id", 'requesterId', request_row."requester_id", 'email', request_row."email")::text);
  end if;
  return null;
end $$;`);
    this.addSql(`drop trigger if exists "requests_notify_event" on "requests";`);
    this.addSql(`create trigger "requests_notify_event" after insert or update of "status" on "requests" for each row execute function "notify_request_event"();`);
    this.addSql(`drop trigger if exists "discussions_notify_event" on "discussions";`);
    this.addSql(`create trigger "discussions_notify_event" after insert on "discussions" for each row execute function "notify_request_event"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "discussions_notify_event" on "discussions";`);
    this.addSql(`drop trigger if exists "requests_notify_event" on "requests";`);
    this.addSql(`drop function if exists "notify_request_event"();`);
    this.addSql(`drop trigger if exists "requests_stamp_status_change" on "requests";`);
    this.addSql(`drop function if exists "requests_stamp_status_change"();`);
    this.addSql(`alter table "requests" drop column if exists "status_changed_at";`);
  }

}
